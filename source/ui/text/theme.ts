import {createContext, useContext} from 'react';

/**
 * Semantic colour tokens. Components name what a piece of text means, never a colour.
 * - ok: live, accepted, all hugepages; warn: stale, rejects, partial; error: down, auth failures;
 * - info: paused and other neutral states; muted: labels and secondary text;
 * - accent: values worth the eye (sparkline, key names); border: pane frames.
 */
export type ThemeToken = 'ok' | 'warn' | 'error' | 'info' | 'muted' | 'accent' | 'border';

/** What a `<Text>` gets for a token: a colour, or nothing at all when colour is off. */
export type TextTone = {readonly color?: string};
/** What a bordered `<Box>` gets for a token. */
export type BorderTone = {readonly borderColor?: string; readonly borderDimColor?: boolean};
/** Dimming (used for panes that show last-known values). A colour attribute, so off without colour. */
export type DimTone = {readonly dimColor?: boolean};

export type Theme = {
	/** Whether any colour attribute is emitted. Off: every state must still read from its words. */
	readonly color: boolean;
	/** Props for `<Text>`; `{}` when colour is off. The same object every call (safe for memo). */
	text(token: ThemeToken): TextTone;
	/** Props for a bordered `<Box>`; `{}` when colour is off. */
	border(token?: ThemeToken, dim?: boolean): BorderTone;
	/** `{dimColor: true}` when `on` and colour is on; `{}` otherwise. */
	dim(on: boolean): DimTone;
};

const palette: Readonly<Record<ThemeToken, string>> = {
	ok: 'green',
	warn: 'yellow',
	error: 'red',
	info: 'blue',
	muted: 'gray',
	accent: 'cyan',
	border: 'gray',
};

const tokens = Object.keys(palette) as ThemeToken[];
const none: Readonly<Record<string, never>> = Object.freeze({});

function build(color: boolean): Theme {
	const text = new Map<ThemeToken, TextTone>();
	const border = new Map<string, BorderTone>();
	for (const token of tokens) {
		text.set(token, color ? Object.freeze({color: palette[token]}) : none);
		border.set(`${token}:0`, color ? Object.freeze({borderColor: palette[token]}) : none);
		border.set(`${token}:1`, color ? Object.freeze({borderColor: palette[token], borderDimColor: true}) : none);
	}

	const dimOn: DimTone = color ? Object.freeze({dimColor: true}) : none;
	return Object.freeze({
		color,
		text: (token: ThemeToken) => text.get(token) ?? none,
		border: (token: ThemeToken = 'border', dim = false) => border.get(`${token}:${dim ? 1 : 0}`) ?? none,
		dim: (on: boolean) => (on ? dimOn : none),
	});
}

const coloured = build(true);
const plain = build(false);

/** The theme for a colour switch. Two shared instances, so the value is stable across renders. */
export function createTheme(options: {readonly color: boolean}): Theme {
	return options.color ? coloured : plain;
}

export const ThemeContext = createContext<Theme>(coloured);

export function useTheme(): Theme {
	return useContext(ThemeContext);
}
