/** The programmatic API, as a vitest user would call it. */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveScenario, runScenario, scenarioSchema, writeReport } from '../src/index.ts';

describe('runScenario', () => {
  it('runs a built-in scenario and returns the summary the report is made of', async () => {
    const { scenario } = resolveScenario('smoke');
    const progress: number[] = [];
    const summary = await runScenario(scenario, { onProgress: (p) => progress.push(p.runsDone), progressEveryMs: 500 });
    expect(summary.passed).toBe(true);
    expect(summary.partial).toBe(false);
    expect(summary.runs).toHaveLength(scenario.runs.count);
    for (const run of summary.runs) {
      expect(run.outcome).toBe('completed');
      expect(run.invariants.filter((i) => i.status === 'fail')).toEqual([]);
      expect(run.invariants.map((i) => i.id)).toContain('replay.cross-version');
    }
    expect(progress.at(-1)).toBe(scenario.runs.count);

    const dir = await writeReport(summary, { root: mkdtempSync(join(tmpdir(), 'longrun-api-')) });
    expect(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')).scenario).toBe('smoke');
    expect(existsSync(join(dir, 'junit.xml'))).toBe(true);
    expect(existsSync(join(dir, 'report.html'))).toBe(true);
  });

  it('is not partial when the abort lands after every run has ended and been judged', async () => {
    const scenario = scenarioSchema.parse({
      name: 'stopped-late',
      seed: 5,
      runs: { count: 2, concurrency: 2, timeout: '60s' },
      shape: { scale: 0.05, overrides: { turns: 4 } },
      expect: [{ on: 'v1', hold: 'all' }],
    });
    const controller = new AbortController();
    let judged = 0;
    const summary = await runScenario(scenario, {
      signal: controller.signal,
      onHistories: async () => {
        judged++;
        if (judged === 2) controller.abort();
      },
    });
    expect(controller.signal.aborted).toBe(true);
    expect(summary.runs.map((r) => r.outcome)).toEqual(['completed', 'completed']);
    expect(summary.partial).toBe(false);
    expect(summary.passed).toBe(true);
  });

  it('stops on an abort and marks the summary partial', async () => {
    const scenario = scenarioSchema.parse({
      name: 'interrupted',
      seed: 5,
      runs: { count: 50, concurrency: 2, timeout: '60s' },
      shape: { scale: 0.05, overrides: { turns: 30 } },
      expect: [{ on: 'v1', hold: 'all' }],
    });
    const controller = new AbortController();
    // Once turns are done: an abort before any run has started is an interrupted start-up instead.
    const summary = await runScenario(scenario, {
      signal: controller.signal,
      onProgress: (progress) => progress.turns >= 10 && controller.abort(),
    });
    expect(summary.partial).toBe(true);
    expect(summary.passed).toBe(false);
    expect(summary.runs.length).toBeLessThan(50);
    for (const run of summary.runs.filter((r) => r.outcome === 'terminated')) {
      // What the run was waiting on follows, when anything was pending.
      expect(run.executions.at(-1)?.reason).toMatch(/^longrun was interrupted(; pending: .+)?$/);
    }
    // A task the termination cut short is the server's bookkeeping (FORCE_CLOSE_COMMAND), not a retry loop.
    for (const run of summary.runs) {
      expect(
        run.invariants.find((i) => i.id === 'wft.no-retry-loop'),
        run.runId,
      ).toMatchObject({ status: 'pass' });
    }
  });
});
