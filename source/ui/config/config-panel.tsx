import {Box} from 'ink';
import {memo} from 'react';
import {Line, Pane, Tone} from '../panes/pane.js';
import type {ThemeToken} from '../theme.js';
import type {PanelContent, PanelLine} from './panel-content.js';

export type ConfigPanelProps = {
	readonly content: PanelContent;
	readonly width: number;
	readonly height: number;
};

function token(line: PanelLine): ThemeToken | undefined {
	return line.tone;
}

/** A framed question or panel over the tree; a list too long for the frame ends with "… N more". */
function ConfigPanelView({content, width, height}: ConfigPanelProps) {
	const inner = Math.max(0, height - 2);
	const promptLines = content.prompt ? 1 : 0;
	const room = Math.max(0, inner - promptLines);
	const fits = content.lines.length <= room;
	const shown = fits ? content.lines : content.lines.slice(0, Math.max(0, room - 1));
	const hidden = content.lines.length - shown.length;
	return (
		<Pane title={content.title} width={width} height={height}>
			{shown.map((line, index) => {
				const tone = token(line);
				return (
					<Box key={index} height={1}>
						{tone ? <Line tone={tone}>{line.text === '' ? ' ' : line.text}</Line> : <Line>{line.text === '' ? ' ' : line.text}</Line>}
					</Box>
				);
			})}
			{hidden > 0 && room > 0 ? <Line tone="muted">{`… ${hidden} more`}</Line> : null}
			{content.prompt && inner > 0 ? (
				<Box height={1}>
					<Line>
						<Tone token="accent" bold>
							{content.prompt}
						</Tone>
					</Line>
				</Box>
			) : null}
		</Pane>
	);
}

export const ConfigPanel = memo(ConfigPanelView);
