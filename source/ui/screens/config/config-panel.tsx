import {Box} from 'ink';
import {memo} from 'react';
import {Line, Pane, Tone} from '../../panes/pane.js';
import {useTheme} from '../../text/theme.js';
import {Wrapped, wrappedHeight} from '../../widgets/wrap.js';
import type {PanelContent, PanelLine} from './panel-content.js';

export type ConfigPanelProps = {
	readonly content: PanelContent;
	readonly width: number;
	readonly height: number;
};

/** The lines a panel line takes inside a frame `inner` columns wide: prose wraps, data is one line. */
function heightOf(line: PanelLine, inner: number): number {
	return line.data || line.text === '' ? 1 : wrappedHeight(line.text, Math.max(1, inner - (line.indent ?? 0)));
}

/**
 * A framed question or panel over the tree. Prose wraps over the lines it needs, data lines are cut at
 * the edge; what does not fit the frame ends with "… N more".
 */
function ConfigPanelView({content, width, height}: ConfigPanelProps) {
	const theme = useTheme();
	const inner = Math.max(0, height - 2);
	const textWidth = Math.max(1, width - 4);
	const promptLines = content.prompt ? heightOf({text: content.prompt}, textWidth) : 0;
	const room = Math.max(0, inner - promptLines);
	const heights = content.lines.map((line) => heightOf(line, textWidth));
	const total = heights.reduce((sum, lines) => sum + lines, 0);
	let shown = content.lines.length;
	if (total > room) {
		// Keep a line for "… N more".
		let used = 0;
		shown = 0;
		while (shown < content.lines.length && used + (heights[shown] ?? 1) <= room - 1) used += heights[shown++] ?? 1;
	}

	const hidden = content.lines.length - shown;
	// As tall as what it holds (up to the room given): a two-line result is not a screen of empty framed lines. The room
	// stays the screen's, so the footer under it does not move.
	const held = heights.slice(0, shown).reduce((sum, lines) => sum + lines, 0) + (hidden > 0 && room > 0 ? 1 : 0) + promptLines;
	return (
		<Box flexDirection="column" width={width} height={height} flexShrink={0}>
			<Pane title={content.title} width={width} height={Math.min(height, held + 2)}>
				{content.lines.slice(0, shown).map((line, index) => {
					const text = line.text === '' ? ' ' : line.text;
					const tone = line.tone ? theme.text(line.tone) : {};
					return (
						<Box key={index} height={heights[index]} flexShrink={0} paddingLeft={line.indent ?? 0}>
							{line.data ? line.tone ? <Line tone={line.tone}>{text}</Line> : <Line>{text}</Line> : <Wrapped {...tone}>{text}</Wrapped>}
						</Box>
					);
				})}
				{hidden > 0 && room > 0 ? <Line tone="muted">{`… ${hidden} more`}</Line> : null}
				{content.prompt && inner > 0 ? (
					<Box height={promptLines} flexShrink={0}>
						<Wrapped>
							<Tone token="accent" bold>
								{content.prompt}
							</Tone>
						</Wrapped>
					</Box>
				) : null}
			</Pane>
		</Box>
	);
}

export const ConfigPanel = memo(ConfigPanelView);
