/**
 * The one error of the channels: a notify URL, a --notify-file or a heartbeat URL rigtop cannot use. It is below
 * `session/` (notify/ may not import it), so the commands turn it into their `UsageError` (exit 2). Its message is one
 * line and never holds a URL's secret parts: at most its scheme and, where the host is a host, the host.
 */
export class NotifyUsageError extends Error {
	override readonly name = 'NotifyUsageError';
}
