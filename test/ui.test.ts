/**
 * `longrun run --ui`: after the report the server stays up with Temporal's Web UI on it, the
 * run's workflows listed there, until Ctrl-C; then the UI and the server go. The first use
 * builds tools/temporal-ui with Go (minutes on a cold Go cache).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../src/environment/index.ts';
import { longrun } from './longrun-cli.ts';

const reports = mkdtempSync(join(tmpdir(), 'longrun-ui-'));

describe('longrun run --ui', () => {
  it('refuses --ui-port without --ui, and --ui on a scenario that restarts its server, in one line each (exit 2)', async () => {
    const port = await longrun(['run', 'smoke', '--ui-port', '9999']);
    expect(port.code).toBe(2);
    expect(port.stderr.trim().split('\n')).toEqual(['longrun run: --ui-port: only with --ui']);
    const restart = await longrun(['run', 'chaos-server-restart', '--ui']);
    expect(restart.code).toBe(2);
    expect(restart.stderr.trim().split('\n')).toHaveLength(1);
    expect(restart.stderr).toMatch(/--ui: scenario chaos-server-restart restarts the server/);
  });

  it("keeps the server up with the Web UI on it, the run's workflows listed, until Ctrl-C", { timeout: 600_000 }, async () => {
    const port = await freeLoopbackPort();
    const base = `http://127.0.0.1:${port}`;
    let listed: Promise<unknown> | undefined;
    const result = await longrun(['run', 'smoke', '--json', '--ui', '--ui-port', String(port), '--report-dir', reports], {
      onStderr(stderr, child) {
        if (listed || !stderr.includes(`Temporal UI at ${base}`)) return;
        listed = fetch(`${base}/api/v1/namespaces/default/workflows`)
          .then((response) => response.json())
          .finally(() => child.kill('SIGINT'));
      },
    });
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout) as { runs: { workflowId: string }[] };
    const { executions } = (await listed) as { executions: { execution: { workflowId: string } }[] };
    // Each execution of a run's ContinueAsNew chain is listed on its own.
    const listedRuns = [...new Set(executions.map((e) => e.execution.workflowId))];
    expect(listedRuns.sort()).toEqual(summary.runs.map((r) => r.workflowId).sort());
    await expect(fetch(base)).rejects.toThrow();
  });
});
