import {useStdout} from 'ink';
import {useEffect, useState} from 'react';

export type TerminalSize = {readonly columns: number; readonly rows: number};

/** Used when the output is not a terminal (no size known). */
export const DEFAULT_SIZE: TerminalSize = {columns: 80, rows: 24};

/** Ink's stdout: a terminal's has its size, any other stream (a pipe, a test's) may not. */
type SizedStream = NodeJS.WritableStream & {readonly columns?: number; readonly rows?: number};

function read(stdout: SizedStream): TerminalSize {
	const columns = stdout.columns !== undefined && stdout.columns > 0 ? stdout.columns : DEFAULT_SIZE.columns;
	const rows = stdout.rows !== undefined && stdout.rows > 0 ? stdout.rows : DEFAULT_SIZE.rows;
	return {columns, rows};
}

/**
 * The size of Ink's stdout, following 'resize' events. Not Ink 8's useWindowSize: that one asks the
 * `terminal-size` package (which runs `tput`/`stty` in child processes) whenever the stream has no size,
 * and sets a new object on every resize event even when the size is the same.
 */
export function useTerminalSize(): TerminalSize {
	const {stdout} = useStdout();
	const [size, setSize] = useState(() => read(stdout));
	useEffect(() => {
		const update = () => {
			setSize((previous) => {
				const next = read(stdout);
				return next.columns === previous.columns && next.rows === previous.rows ? previous : next;
			});
		};

		update();
		stdout.on('resize', update);
		return () => {
			stdout.off('resize', update);
		};
	}, [stdout]);
	return size;
}
