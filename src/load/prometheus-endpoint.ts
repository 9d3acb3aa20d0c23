/**
 * A Prometheus endpoint on loopback while `run` or `soak` goes on: longrun's own counters (runs,
 * turns, request bytes, violations) and this process's memory, followed by the SDK's worker
 * metrics (the SDK runtime's own exporter, read on every scrape), so one scrape target shows
 * both. Names follow Prometheus's conventions: `_total` counters, base units, one prefix.
 */
import { createServer } from 'node:http';
import { connect } from 'node:net';

/** What longrun has done so far (the runner's progress). */
export interface LongrunCounters {
  runsStarted: number;
  runsJudged: number;
  runsJudging: number;
  turns: number;
  requestBytes: number;
  violations: number;
}

interface Metric {
  name: string;
  type: 'counter' | 'gauge';
  help: string;
  value: number;
}

function escapeLabel(value: string): string {
  return value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');
}

/** The text exposition format of longrun's own metrics, each labelled with the scenario. */
export function renderLongrunMetrics(scenario: string, counters: LongrunCounters, residentBytes: number): string {
  const metrics: Metric[] = [
    { name: 'longrun_runs_started_total', type: 'counter', help: 'Runs started.', value: counters.runsStarted },
    { name: 'longrun_runs_judged_total', type: 'counter', help: 'Runs ended and judged.', value: counters.runsJudged },
    { name: 'longrun_runs_judging', type: 'gauge', help: 'Runs ended and being judged.', value: counters.runsJudging },
    { name: 'longrun_turns_total', type: 'counter', help: 'Model turns answered by the mocks.', value: counters.turns },
    { name: 'longrun_request_bytes_total', type: 'counter', help: 'Bytes of model requests received.', value: counters.requestBytes },
    { name: 'longrun_violations_total', type: 'counter', help: 'Invariant violations in judged runs.', value: counters.violations },
    { name: 'process_resident_memory_bytes', type: 'gauge', help: 'Resident memory of the longrun process.', value: residentBytes },
  ];
  const label = `{scenario="${escapeLabel(scenario)}"}`;
  return metrics.map((m) => `# HELP ${m.name} ${m.help}\n# TYPE ${m.name} ${m.type}\n${m.name}${label} ${m.value}\n`).join('');
}

export interface PrometheusEndpointOptions {
  port: number;
  scenario: string;
  counters: () => LongrunCounters;
  /** The SDK runtime's Prometheus exporter, appended to every scrape. */
  sdkMetricsUrl?: string;
}

export interface PrometheusEndpoint {
  url: string;
  close(): Promise<void>;
}

/**
 * GET over a plain socket: the in-process mocks (MSW) intercept this process's fetch and
 * http clients and refuse what they do not mock. HTTP/1.0, so the body ends with the connection.
 */
function httpGet(url: URL): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    const chunks: Buffer[] = [];
    socket.setTimeout(2_000, () => socket.destroy(new Error('no answer within 2 s')));
    socket.on('connect', () => socket.write(`GET ${url.pathname} HTTP/1.0\r\nHost: ${url.host}\r\n\r\n`));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.\d (\d{3})/.exec(text)?.[1] ?? 0), body: split < 0 ? '' : text.slice(split + 4) });
    });
  });
}

async function sdkMetrics(url: string | undefined): Promise<string> {
  if (!url) return '';
  try {
    const { status, body } = await httpGet(new URL(url));
    return status === 200 ? body : `# the SDK's metrics answered HTTP ${status}\n`;
  } catch (error) {
    return `# the SDK's metrics could not be read: ${(error as Error).message}\n`;
  }
}

/** Serves GET /metrics on 127.0.0.1:`port`; a port already taken rejects naming it. */
export function startPrometheusEndpoint(options: PrometheusEndpointOptions): Promise<PrometheusEndpoint> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('longrun serves /metrics only\n');
      return;
    }
    const own = renderLongrunMetrics(options.scenario, options.counters(), process.memoryUsage.rss());
    void sdkMetrics(options.sdkMetricsUrl).then((sdk) => {
      response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }).end(own + sdk);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(`--metrics-port: cannot listen on 127.0.0.1:${options.port} (${error.code ?? error.message})`)),
    );
    server.listen(options.port, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${options.port}/metrics`,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    );
  });
}
