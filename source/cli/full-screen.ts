/**
 * Switches the terminal to the alternate screen (as top and htop do), so the dashboard owns the whole
 * window and the user's scrollback is untouched when rigtop exits. Returns the function that switches
 * back; it is also run on process exit so no path leaves the terminal on the alternate screen.
 */
export function enterFullScreen(stdout: NodeJS.WriteStream): () => void {
	if (!stdout.isTTY) return () => undefined;
	let active = true;
	const leave = () => {
		if (!active) return;
		active = false;
		process.off('exit', leave);
		stdout.write('\u001B[?1049l');
	};

	stdout.write('\u001B[?1049h\u001B[H');
	process.on('exit', leave);
	return leave;
}
