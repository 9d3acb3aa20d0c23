/**
 * A run that does not end by itself is a violation, never "no violation": each way a run
 * stalls, shown on a broken control, and an interrupt while runs are judged.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runScenario, scenarioSchema } from '../src/index.ts';
import { MUTANTS } from '../src/mutants/catalogue.ts';
import { longSmokeScenario } from './long-smoke.ts';

/** The control's catalogue scenario, also expected to hold every invariant (which it must not). */
async function runStalling(binary: string) {
  const mutant = MUTANTS.find((m) => m.binary === binary);
  if (!mutant) throw new Error(`no mutant ${binary}`);
  const scenario = scenarioSchema.parse({ ...mutant.scenario, expect: [...mutant.scenario.expect, { on: binary, hold: 'all' }] });
  const summary = await runScenario(scenario);
  const [caught, holds] = summary.expectations;
  const liveness = summary.runs.map((run) => run.invariants.find((i) => i.id === 'run.liveness'));
  return { summary, caught, holds, liveness, evidence: liveness.flatMap((l) => l?.evidence ?? []).join('\n') };
}

describe('run.liveness on stalled runs', () => {
  it('an activity that retries without end: stopped at the timeout, the activity and its attempts named', async () => {
    const { summary, caught, holds, liveness, evidence } = await runStalling('compaction-retries-forever');
    expect(caught?.met, caught?.detail).toBe(true);
    expect(holds).toMatchObject({ met: false, detail: expect.stringContaining('run.liveness') });
    expect(summary.passed).toBe(false);
    expect(liveness.every((l) => l?.status === 'fail')).toBe(true);
    expect(evidence).toMatch(
      /terminated by "[^"]*": "longrun stopped the run after its timeout of 15 s; pending: kernel\.compact_context attempt \d+ \(last failure: compaction model answered HTTP 500/,
    );
    expect(evidence).toMatch(/event \d+: kernel\.compact_context was scheduled and never closed \(attempts without bound/);
  });

  it('an execution chain that continues as new without completing a turn', async () => {
    const { caught, holds, evidence, summary } = await runStalling('can-budget-per-run');
    expect(caught?.met, caught?.detail).toBe(true);
    expect(holds?.met).toBe(false);
    expect(summary.runs[0]?.executions.length).toBeGreaterThan(3);
    expect(evidence).toMatch(/execution 2 event \d+: continued as new without completing a turn/);
    expect(evidence).toMatch(/\d+ of \d+ executions continued as new without completing a turn/);
  });
});

describe('an interrupt while runs are judged', () => {
  it('Ctrl-C to the whole process group: the runs are judged on a server still up, and the partial report is written', async () => {
    const reports = mkdtempSync(join(tmpdir(), 'longrun-interrupt-'));
    // Its own process group, as a terminal makes one: the signal reaches every process in it.
    const child = spawn(
      process.execPath,
      [fileURLToPath(new URL('../bin/longrun.js', import.meta.url)), 'run', longSmokeScenario(), '--report-dir', reports],
      {
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    let stdout = '';
    let interrupted = false;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
      // The first progress line with turns done: runs are in flight.
      if (/runs \d+\/\d+ .* [1-9]\d* turns/.test(stderr) && child.pid && !interrupted) {
        process.kill(-child.pid, 'SIGINT');
        interrupted = true;
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toContain('SIGINT: stopping the runs and writing a partial report');
    expect(stderr + stdout).not.toMatch(/^\s+at /m);
    // Interrupted, not a regression: an exit of its own.
    expect(code, stderr).toBe(130);
    const folder = readdirSync(reports)[0] as string;
    const summary = JSON.parse(readFileSync(join(reports, folder, 'summary.json'), 'utf8'));
    expect(summary.partial).toBe(true);
    expect(summary.runs.length).toBeGreaterThan(0);
    const stopped = summary.runs.filter((r: { outcome: string }) => r.outcome === 'terminated');
    for (const run of stopped) {
      expect(run.invariants.find((i: { id: string }) => i.id === 'run.liveness').status).toBe('fail');
    }
    // In junit.xml a stopped run's failures are skipped, named as the stop's; the invocation's case fails as partial.
    const junit = readFileSync(join(reports, folder, 'junit.xml'), 'utf8');
    expect(junit).toContain('type="partial"');
    for (const run of stopped) expect(junit).not.toMatch(new RegExp(`classname="${run.runId}"[^>]*>\\s*<failure`));
    if (stopped.length > 0) expect(junit).toContain('the run was stopped when longrun was interrupted, not judged');
  });

  it('its parent killed alone (npx under a CI cancel): longrun notices, stops its runs, writes the partial report and exits', async () => {
    const reports = mkdtempSync(join(tmpdir(), 'longrun-orphan-'));
    const bin = fileURLToPath(new URL('../bin/longrun.js', import.meta.url));
    // A parent like npx: it starts longrun, reads its stderr, and dies without passing anything on.
    const parentScript = `
      const child = require('node:child_process').spawn(process.execPath, ${JSON.stringify([bin, 'run', longSmokeScenario(), '--report-dir', reports])}, { stdio: ['ignore', 'ignore', 'pipe'] });
      process.stdout.write(child.pid + '\\n');
      child.stderr.on('data', (d) => process.stderr.write(d));`;
    const parent = spawn(process.execPath, ['-e', parentScript], { stdio: ['ignore', 'pipe', 'pipe'] });
    let pid = 0;
    let stderr = '';
    parent.stdout.on('data', (d: Buffer) => (pid ||= Number.parseInt(String(d), 10)));
    await new Promise<void>((resolve) => {
      parent.stderr.on('data', (d: Buffer) => {
        stderr += d;
        if (/runs \d+\/\d+ .* [1-9]\d* turns/.test(stderr)) resolve();
      });
    });
    parent.kill('SIGKILL');
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const deadline = Date.now() + 90_000;
    while (alive() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(alive()).toBe(false);
    const folder = readdirSync(reports)[0] as string;
    const summary = JSON.parse(readFileSync(join(reports, folder, 'summary.json'), 'utf8'));
    expect(summary.partial).toBe(true);
    expect(readFileSync(join(reports, folder, 'junit.xml'), 'utf8')).toContain('type="partial"');
  }, 120_000);
});
