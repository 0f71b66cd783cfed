import {connect} from 'node:net';

/**
 * Whether something accepts TCP connections at the miner's address: a bare connect, closed at
 * once, with no request sent. It is how a monitor that backs off its full polls of a miner that
 * went away notices, within one interval, that the port is open again.
 */
export async function portIsOpen(url: string, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
	const {hostname, port} = new URL(url);
	const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
	return new Promise<boolean>((resolve) => {
		if (signal?.aborted) {
			resolve(false);
			return;
		}

		const socket = connect({host, port: Number(port)});
		const finish = (open: boolean) => {
			clearTimeout(timer);
			signal?.removeEventListener('abort', onAbort);
			socket.destroy();
			resolve(open);
		};

		const onAbort = () => finish(false);
		const timer = setTimeout(() => finish(false), timeoutMs);
		signal?.addEventListener('abort', onAbort, {once: true});
		socket.once('connect', () => finish(true));
		socket.once('error', () => finish(false));
	});
}
