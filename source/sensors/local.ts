/**
 * Whether a miner's address is this machine: only then does rigtop read the machine's sensors beside it (a rig
 * elsewhere gets nothing rather than this machine's numbers). No name is looked up: loopback, "localhost", this
 * machine's host name and the addresses of its own interfaces.
 */
import {hostname, networkInterfaces} from 'node:os';

function isLoopback(host: string): boolean {
	if (host === 'localhost' || host.endsWith('.localhost') || host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
	const v4 = host.startsWith('::ffff:') ? host.slice(7) : host;
	return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** This machine's own addresses, lowercased (IPv6 without a zone). */
function ownAddresses(): Set<string> {
	const addresses = new Set<string>();
	try {
		for (const list of Object.values(networkInterfaces())) {
			for (const info of list ?? []) addresses.add(info.address.toLowerCase().replace(/%.*$/, ''));
		}
	} catch {
		// No interface list (a sandbox): loopback and the host name still count.
	}

	return addresses;
}

/** Whether `url`'s host is loopback or one of this machine's own addresses or names. */
export function isLocalUrl(url: string, interfaces: () => Set<string> = ownAddresses): boolean {
	let host: string;
	try {
		host = new URL(url).hostname.toLowerCase();
	} catch {
		return false;
	}

	if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
	host = host.replace(/\.$/, '');
	if (host === '') return false;
	if (isLoopback(host)) return true;
	if (host === hostname().toLowerCase()) return true;
	return interfaces().has(host.replace(/%.*$/, ''));
}
