import {Text} from 'ink';
import {memo} from 'react';
import type {CpuInfo, HugePages, Resources} from '../../miner/model.js';
import {DASH, formatBytes, formatInteger, formatLoad, formatPercent} from '../../text/format.js';
import {PIECE_GAP, sensorLines, type SensorPiece} from '../text/sensors.js';
import type {ThemeToken} from '../text/theme.js';
import {Line, Pane, Tone} from './pane.js';

export type SystemPaneProps = {
	readonly cpu: CpuInfo;
	readonly hugepages: HugePages | null;
	readonly resources: Resources | null;
	/** The rig's own readings as the pane says them (ui/sensors.ts's sensorPieces); none for a rig on another machine. */
	readonly sensors?: readonly SensorPiece[];
	/** Lines the layout gave them, under the CPU line (0: none shown). */
	readonly sensorLines?: number;
	readonly width: number;
	readonly height: number;
	readonly outdated: boolean;
};

/**
 * A CPU brand without the words that carry nothing in a narrow pane:
 * "Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz" → "Intel Core i7-8700 @ 3.20GHz",
 * "AMD Ryzen 9 5950X 16-Core Processor" → "AMD Ryzen 9 5950X".
 */
export function shortBrand(brand: string): string {
	return brand
		.replaceAll(/\((?:R|TM|tm|r)\)/g, '')
		.replaceAll(/\b\d+-Core\b/gi, '')
		.replaceAll(/\b(?:Processor|CPU)\b/g, '')
		.replaceAll(/\s+/g, ' ')
		.trim();
}

export function hugepagesText(hugepages: HugePages | null): {readonly text: string; readonly tone: ThemeToken} {
	if (hugepages === null) return {text: DASH, tone: 'muted'};
	if (hugepages.kind === 'flag') return hugepages.enabled ? {text: 'on', tone: 'ok'} : {text: 'off', tone: 'warn'};
	const {allocated, total} = hugepages;
	if (total <= 0) return {text: 'off', tone: 'muted'};
	const tone: ThemeToken = allocated >= total ? 'ok' : allocated > 0 ? 'warn' : 'error';
	return {text: `${formatInteger(allocated)}/${formatInteger(total)} ${formatPercent(allocated, total)}`, tone};
}

/** One line of the rig's readings: the pieces with their labels muted, each toned by its own limits. */
function SensorLine({pieces}: {readonly pieces: readonly SensorPiece[]}) {
	return (
		<Line>
			{pieces.map((piece, index) => (
				<Text key={piece.key}>
					{index === 0 ? '' : <Tone token="muted">{PIECE_GAP}</Tone>}
					{piece.label ? <Tone token="muted">{piece.label}</Tone> : null}
					{piece.tone === null ? piece.text : <Tone token={piece.tone}>{piece.text}</Tone>}
				</Text>
			))}
		</Line>
	);
}

const NO_PIECES: readonly SensorPiece[] = [];

/**
 * The CPU (cores/threads and the flags that matter for RandomX first, the brand last), the rig's own readings where
 * rigtop reads them (°C against each sensor's own max, GHz, W, H/W: ui/sensors.ts), hugepages, load and the miner's
 * memory; free memory only where it fits whole.
 */
function SystemPaneView({
	cpu,
	hugepages,
	resources,
	sensors = NO_PIECES,
	sensorLines: lines = 0,
	width,
	height,
	outdated,
}: SystemPaneProps) {
	const inner = Math.max(0, width - 4);
	const counts = cpu.cores !== null || cpu.threads !== null ? `${cpu.cores ?? '?'}C/${cpu.threads ?? '?'}T` : '';
	const hasFlags = cpu.aes !== null || cpu.avx2 !== null;
	const pages = hugepagesText(hugepages);
	const pagesLine = `hugepages ${pages.text}`;
	const free = resources?.memoryFree ?? null;
	const freeText = free === null ? '' : ` · free ${formatBytes(free)}`;
	return (
		<Pane title="System" width={width} height={height} outdated={outdated}>
			<Line>
				{counts}
				{counts && hasFlags ? ' ' : ''}
				{cpu.aes === null ? null : cpu.aes ? <Tone token="ok">AES</Tone> : <Tone token="warn">no AES</Tone>}
				{cpu.aes !== null && cpu.avx2 !== null ? ' ' : ''}
				{cpu.avx2 === null ? null : cpu.avx2 ? <Tone token="ok">AVX2</Tone> : <Tone token="muted">no AVX2</Tone>}
				{counts || hasFlags ? ' · ' : ''}
				{cpu.brand === null ? 'unknown CPU' : shortBrand(cpu.brand)}
			</Line>
			{sensorLines(sensors, inner, lines).map((pieces, index) => (
				// keyed by position: the lines of one reading
				<SensorLine key={index} pieces={pieces} />
			))}
			<Line>
				<Tone token="muted">hugepages </Tone>
				<Tone token={pages.tone}>{pages.text}</Tone>
				{freeText && pagesLine.length + freeText.length <= inner ? <Tone token="muted">{freeText}</Tone> : null}
			</Line>
			<Line>
				<Tone token="muted">load </Tone>
				{formatLoad(resources?.loadAverage ?? null)}
				<Tone token="muted">{' · rss '}</Tone>
				{formatBytes(resources?.rss ?? null)}
			</Line>
		</Pane>
	);
}

export const SystemPane = memo(SystemPaneView);
