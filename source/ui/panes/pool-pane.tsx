import {memo} from 'react';
import type {PoolConnection} from '../../miner/model.js';
import {DASH, formatCount, formatDuration, formatPing} from '../../text/format.js';
import {Line, Pane, Tone} from './pane.js';

export type PoolPaneProps = {
	readonly connection: PoolConnection;
	readonly width: number;
	readonly height: number;
	readonly outdated: boolean;
};

/** The pool: where, whether connected and over TLS, ping, difficulty, connection age, losses, IP. */
function PoolPaneView({connection, width, height, outdated}: PoolPaneProps) {
	const {pool, connected, tls, ip, failures} = connection;
	return (
		<Pane title="Pool" width={width} height={height} outdated={outdated}>
			<Line>
				{pool === null ? <Tone token="warn">no pool yet</Tone> : <Tone token="accent">{pool}</Tone>}
				{connected ? (
					tls ? (
						<Tone token="ok">{`  ${tls}`}</Tone>
					) : (
						<Tone token="muted">{'  no TLS'}</Tone>
					)
				) : (
					<Tone token="warn">{pool === null ? '' : '  disconnected'}</Tone>
				)}
			</Line>
			<Line>
				<Tone token="muted">ping </Tone>
				{formatPing(connection.ping)}
				<Tone token="muted">{' · diff '}</Tone>
				{formatCount(connection.diff)}
				<Tone token="muted">{' · up '}</Tone>
				{connected ? formatDuration(connection.uptime) : DASH}
			</Line>
			<Line>
				<Tone token="muted">failures </Tone>
				{failures !== null && failures > 0 ? <Tone token="warn">{String(failures)}</Tone> : failures === null ? DASH : '0'}
				<Tone token="muted">{' · ip '}</Tone>
				{ip ?? DASH}
			</Line>
		</Pane>
	);
}

export const PoolPane = memo(PoolPaneView);
