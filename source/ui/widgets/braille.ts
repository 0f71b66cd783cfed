/**
 * A braille dot canvas: drawille (docs/design.md says why this library and what it measured). Each terminal cell
 * holds 2×4 dots; a layer is one drawille canvas, and `cells` reads it back as one bit mask per cell, so layers of
 * different colours can be merged cell by cell.
 */
import drawille from 'drawille';

/**
 * drawille 2.0.2 sets `module.exports = Canvas` while its types declare `export default class Canvas`: under NodeNext
 * TypeScript takes the default import for the module object, which at run time (Node, esbuild) is the class itself.
 */
type CanvasClass = typeof drawille.default;
const Canvas: CanvasClass = (drawille as unknown as {default?: CanvasClass}).default ?? (drawille as unknown as CanvasClass);

export const BRAILLE_BASE = 0x28_00;

export class BrailleLayer {
	/** Size in dots. */
	readonly width: number;
	readonly height: number;
	readonly #canvas: InstanceType<CanvasClass>;

	/** A layer of `columns` × `rows` cells. */
	constructor(columns: number, rows: number) {
		this.width = Math.max(1, Math.floor(columns)) * 2;
		this.height = Math.max(1, Math.floor(rows)) * 4;
		this.#canvas = new Canvas(this.width, this.height);
	}

	/** Sets the dot at (x, y), 0,0 top left; outside the canvas does nothing. */
	set(x: number, y: number): void {
		this.#canvas.set(x, y);
	}

	/** The layer's cells, rows of bit masks (0 = no dot), `rows` × `columns`. */
	cells(): number[][] {
		// frame() is "\n" + each row + "\n": a blank cell is a space, a cell with dots U+2800 + its mask.
		const rows = this.#canvas
			.frame('\n')
			.split('\n')
			.slice(1, 1 + this.height / 4);
		return rows.map((row) => Array.from(row, (char) => (char === ' ' ? 0 : (char.codePointAt(0) ?? BRAILLE_BASE) - BRAILLE_BASE)));
	}
}

/** The character of a cell's dots. */
export function brailleChar(mask: number): string {
	return String.fromCodePoint(BRAILLE_BASE + (mask & 0xff));
}
