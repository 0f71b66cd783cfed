/**
 * `rigtop exporter --help`: the exporter's own usage (the main --help is the live view's). Plain text within 80
 * columns; it loads nothing else, so asking for it never finds a miner nor binds a port.
 */
export function exporterHelp(): string {
	return `
  The miners' metrics for Prometheus, on /metrics (docs/prometheus/).

  Usage
    $ rigtop exporter [URL…] [--rigs FILE] [--listen HOST:PORT]

  Which miners (as for the live view)
    URL…                     miners to watch (host:port); none: the XMRig
                             running on this machine
    --rigs FILE              the rigs listed in FILE (JSON: name, url,
                             tokenFile); SIGHUP reads it again
    --token-file PATH        the miners' access token; --config PATH: from the
                             miner's config
    --demo                   a simulated miner on a free loopback port

  Options
    --listen HOST:PORT       where /metrics listens (127.0.0.1:9189; :PORT for
                             every interface: protect it with a token)
    --metrics-token-file PATH
                             /metrics wants "Authorization: Bearer TOKEN"
    --interval, -i SECONDS   how often each miner is polled (10; min 0.25)
    --no-thread-metrics      no per-thread series, and no /2/backends (or
                             /1/threads) read at each poll: a miner makes
                             about 35 series plus 3 per CPU thread (5 per GPU
                             thread); about 33 with --no-thread-metrics
    --no-worker-metrics      no per-worker series for an xmrig-proxy, and no
                             /1/workers read at each poll (its own
                             xmrig_proxy_* series stay: about 32)
    --worker-metrics-limit N series for at most N workers of one proxy, the
                             highest 10 min hashrates (1000; 11 series each);
                             the log says once which were left out
    --notify-file PATH       notify these channels of the miners' troubles
                             (one URL a line, mode 0600; or RIGTOP_NOTIFY);
                             --notify-group, --notify-repeat, --notify-flap,
                             --heartbeat URL as for rigtop watch (rigtop
                             --help); each notice sent is a log line
    --log.format FORMAT      logfmt (default) or json: each line on stderr has
                             a time and a level
    --log.level LEVEL        debug, info (default), warn or error
    --help, -h, --version

  Endpoints
    /metrics                 the series (text format or OpenMetrics), with
                             each miner's last good poll and start time,
                             and the exporter's heap (its bound: exit 1); an
                             xmrig-proxy's under xmrig_proxy_* (its rates
                             over 1m to 24h, shares, miners, upstreams) and
                             its workers' under xmrig_proxy_worker_*
    /-/healthy, /-/ready     200 while it runs; ready once every miner was
                             polled once (503 before)
    /                        rigtop and its version

  Signals
    SIGHUP                   read the rigs file again: new rigs are polled,
                             removed ones go, the others go on; a broken file
                             is logged and the rigs served stay as they were
    SIGTERM, SIGINT          stop, exit 0

  Examples
    $ rigtop exporter --rigs /etc/rigtop/rigs.json
    $ rigtop exporter 10.0.0.5:8080 --listen :9189 --metrics-token-file t.txt
`;
}
