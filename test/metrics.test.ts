/**
 * `longrun run --metrics-port`: while the runs go on, one Prometheus scrape shows longrun's own
 * counters and the SDK worker's metrics (its runtime's exporter, behind the same endpoint).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../src/environment/index.ts';
import { longrun } from './longrun-cli.ts';

describe('longrun run --metrics-port', () => {
  it("serves longrun's counters and the SDK's worker metrics while the runs go on", async () => {
    const port = await freeLoopbackPort();
    let scraped: Promise<string> | undefined;
    const result = await longrun(
      ['run', 'smoke', '--metrics-port', String(port), '--report-dir', mkdtempSync(join(tmpdir(), 'longrun-m-'))],
      {
        onStderr(stderr) {
          // The first progress line: runs are in flight and the counters have been read once.
          if (!scraped && /\nruns \d+\/\d+/.test(stderr)) scraped = fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text());
        },
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`longrun: Prometheus metrics at http://127.0.0.1:${port}/metrics`);
    const text = await (scraped as Promise<string>);
    expect(text).toMatch(/^longrun_runs_started_total\{scenario="smoke"\} [1-9]/m);
    expect(text).toMatch(/^longrun_turns_total\{scenario="smoke"\} \d+/m);
    expect(text).toMatch(/^# TYPE temporal_\w+ (counter|gauge|histogram)/m);
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });
});
