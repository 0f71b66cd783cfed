/**
 * A table row as a few segments: each toned cell on its own, the plain cells between them joined into one string. A
 * row is then a handful of Text nodes, not one per cell (layout cost per redraw). The fleet's rows and a proxy's
 * workers are drawn this way.
 */
import {Text} from 'ink';
import {fitCell, type FittedColumn} from './table.js';
import {useTheme, type ThemeToken} from '../text/theme.js';

export type Segment = {readonly text: string; readonly tone: ThemeToken | null; readonly plain: boolean};

/** The row's segments; `tone` gives a cell's colour by its column's id, null for a plain cell. */
export function segments<Line>(
	fitted: readonly FittedColumn<Line>[],
	line: Line,
	gap: number,
	tone: (id: string) => ThemeToken | null,
): readonly Segment[] {
	const out: Segment[] = [];
	let plain = '';
	fitted.forEach(({column, width}, index) => {
		const text = `${index === 0 ? '' : ' '.repeat(gap)}${fitCell(column.cell(line, width), width, column.align)}`;
		const token = tone(column.id);
		if (token === null) {
			plain += text;
			return;
		}

		if (plain !== '') out.push({text: plain, tone: null, plain: true});
		plain = '';
		out.push({text, tone: token, plain: false});
	});
	if (plain !== '') out.push({text: plain.trimEnd(), tone: null, plain: true});
	return out;
}

/** The segments drawn; `dim` dims the plain ones (last-known values). */
export function Segments({parts, dim}: {readonly parts: readonly Segment[]; readonly dim: boolean}) {
	const theme = useTheme();
	return (
		<>
			{parts.map((part, index) => (
				<Text key={index} {...(part.tone ? theme.text(part.tone) : {})} {...theme.dim(dim && part.plain)}>
					{part.text}
				</Text>
			))}
		</>
	);
}

/** The column headings on one line, as the rows below them are fitted. */
export function headingsOf<Line>(fitted: readonly FittedColumn<Line>[], gap: number): string {
	return fitted
		.map(({column, width}) => fitCell(column.header, width, column.align))
		.join(' '.repeat(gap))
		.trimEnd();
}
