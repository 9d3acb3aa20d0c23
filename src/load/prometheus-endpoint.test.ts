import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../environment/index.ts';
import { renderLongrunMetrics, startPrometheusEndpoint } from './prometheus-endpoint.ts';

const counters = { runsStarted: 4, runsJudged: 3, runsJudging: 1, turns: 57, requestBytes: 1_234_567, violations: 2 };

describe('the Prometheus endpoint', () => {
  it("renders longrun's counters in the text format, each with its HELP, TYPE and the scenario label", () => {
    const text = renderLongrunMetrics('my "soak"', counters, 512);
    expect(text).toContain('# TYPE longrun_turns_total counter\nlongrun_turns_total{scenario="my \\"soak\\""} 57\n');
    expect(text).toContain('# TYPE longrun_runs_judging gauge\nlongrun_runs_judging{scenario="my \\"soak\\""} 1\n');
    expect(text).toContain('longrun_request_bytes_total{scenario="my \\"soak\\""} 1234567\n');
    expect(text).toContain('process_resident_memory_bytes{scenario="my \\"soak\\""} 512\n');
    expect(text.match(/^# HELP /gm)).toHaveLength(7);
  });

  it("serves longrun's metrics followed by the SDK exporter's on GET /metrics, and 404 elsewhere", async () => {
    const sdk = createServer((_, response) => response.end('# TYPE temporal_request_total counter\ntemporal_request_total 9\n'));
    await new Promise<void>((done) => sdk.listen(0, '127.0.0.1', done));
    const address = sdk.address() as { port: number };
    const endpoint = await startPrometheusEndpoint({
      port: await freeLoopbackPort(),
      scenario: 'smoke',
      counters: () => counters,
      sdkMetricsUrl: `http://127.0.0.1:${address.port}/metrics`,
    });
    try {
      const response = await fetch(endpoint.url);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await response.text();
      expect(text.indexOf('longrun_turns_total{scenario="smoke"} 57')).toBeLessThan(text.indexOf('temporal_request_total 9'));
      expect((await fetch(endpoint.url.replace('/metrics', '/'))).status).toBe(404);
    } finally {
      await endpoint.close();
      sdk.close();
    }
  });

  it('rejects a port already taken, naming it', async () => {
    const port = await freeLoopbackPort();
    const first = await startPrometheusEndpoint({ port, scenario: 's', counters: () => counters });
    try {
      await expect(startPrometheusEndpoint({ port, scenario: 's', counters: () => counters })).rejects.toThrow(
        `--metrics-port: cannot listen on 127.0.0.1:${port} (EADDRINUSE)`,
      );
    } finally {
      await first.close();
    }
  });
});
