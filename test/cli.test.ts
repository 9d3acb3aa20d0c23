/**
 * The CLI as a user meets it: help, bad input, incident reproductions, judging the histories a
 * failing run leaves behind, and the exit code of each outcome: 0 passed, 1 a regression, 2
 * longrun could not do its job.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freeLoopbackPort, startEnvironment } from '../src/environment/index.ts';
import { resolveScenario } from '../src/scenario/index.ts';
import { longrun } from './longrun-cli.ts';

const reports = mkdtempSync(join(tmpdir(), 'longrun-reports-'));

describe('longrun', () => {
  it('prints its commands with --help and rejects an unknown one in one line', async () => {
    const help = await longrun(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['run', 'soak', 'repro', 'check', 'replay', 'mutants', 'scenario', 'mock-server']) {
      expect(help.stdout).toContain(`  ${command}`);
    }
    const unknown = await longrun(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
  });

  it('turns an error nothing expected (thrown from a timer) into one line', async () => {
    const preload = join(reports, 'throw-later.mjs');
    // Throws from a timer once longrun is up (it has its last-resort handler in place).
    writeFileSync(
      preload,
      "const t = setInterval(() => { if (process.listenerCount('uncaughtException') === 0) return; clearInterval(t); throw new Error('boom from a timer\\n    at somewhere (x.js:1:1)'); }, 50);\n",
    );
    const result = await longrun(['mock-server'], { env: { NODE_OPTIONS: `--import ${preload}` } });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual(['longrun: internal error: boom from a timer (LONGRUN_DEBUG=1 prints the stack)']);
  });

  it('exits 2 on a usage error: a flag the command does not take', async () => {
    const result = await longrun(['run', 'smoke', '--duration', '1m']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      'longrun run: unknown option --duration: this command takes --json, --report-dir, --ui, --ui-port, --metrics-port, --judge-on, --drive-on, --judge-namespace, --mock-replicas',
    ]);
  });

  it('shows the control characters of a name it could not find, never sends them to the terminal', async () => {
    const result = await longrun(['check', join(reports, 'evil\u001B]0;pwned\u0007\r.json')]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      `longrun check: ${join(reports, 'evil\\u001B]0;pwned\\u0007\\u000D.json')}: no such file or folder`,
    ]);
  });

  it('exits 2 on an unknown scenario, in one line', async () => {
    const result = await longrun(['run', 'smoek']);
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^longrun run: unknown scenario "smoek" \(did you mean smoke\?\)/);
  });

  it('exits 2 on an invalid scenario file, with a line per problem naming file, line, column and field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'longrun-scenario-'));
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, 'name: broken\nseed: -3\nruns:\n  count: 2\n  concurrency: many\nexpect:\n  - { on: v7, hold: all }\n');
    const result = await longrun(['run', file]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      `longrun run: ${file}:2:7: seed: expected an integer from 0 to 4294967295, got -3`,
      `longrun run: ${file}:5:16: runs.concurrency: expected a positive integer, got "many"`,
      expect.stringMatching(
        new RegExp(`^longrun run: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:7:11: expect\\[0\\]\\.on: expected one of v0, v1, `),
      ),
    ]);
    // Validating is a check: an invalid file fails it (1), and every problem is listed.
    const validate = await longrun(['scenario', 'validate', file]);
    expect(validate.code).toBe(1);
    expect(
      validate.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(': ')[0]),
    ).toEqual([`${file}:2:7`, `${file}:5:16`, `${file}:7:11`]);
  });

  it('exits 2 when the server cannot be reached', async () => {
    const port = await freeLoopbackPort(); // handed out and closed again: nothing listens there
    const result = await longrun(['run', 'smoke', '--report-dir', reports], { env: { TEMPORAL_ADDRESS: `127.0.0.1:${port}` } });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`longrun run: cannot reach Temporal at 127.0.0.1:${port}`);
  });

  it('exits 2 when a worker will not start: its namespace is not on the cluster', async () => {
    const env = await startEnvironment();
    try {
      const result = await longrun(['worker', '--task-queue', 'q', '--mock-url', 'http://127.0.0.1:9'], {
        env: { TEMPORAL_ADDRESS: env.address, TEMPORAL_NAMESPACE: 'no-such-namespace' },
      });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/^longrun worker: the worker cannot start: namespace no-such-namespace on .*: .*not found/i);
    } finally {
      await env.teardown();
    }
  });

  it('reproduces TMPRL1103 on v0, stops the failing task at its first retry, and passes on v1 (exit 0)', async () => {
    const result = await longrun(['repro', 'tmprl1103', '--report-dir', reports]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/met\s+on v0: tmprl1103 reproduces/);
    expect(result.stdout).toMatch(/met\s+on v1: every invariant holds/);
    expect(result.stdout).toContain('PAYLOADS_TOO_LARGE');
    const folder = readdirSync(reports).find((f) => f.endsWith('-tmprl1103'));
    expect(folder).toBeDefined();
    const summary = JSON.parse(readFileSync(join(reports, folder as string, 'summary.json'), 'utf8'));
    const v0 = summary.runs.filter((r: { binary: string }) => r.binary === 'v0');
    expect(v0).toHaveLength(resolveScenario('tmprl1103').scenario.runs.count);
    for (const run of v0) {
      expect(run.incidents).toContain('tmprl1103');
      expect(run.executions.at(-1).reason).toMatch(
        /longrun stopped a workflow task that failed with PAYLOADS_TOO_LARGE \(TMPRL1103\) at its retry/,
      );
      // A retry loop is a stall: liveness fails it and names the failing workflow task.
      const liveness = run.invariants.find((i: { id: string }) => i.id === 'run.liveness');
      expect(liveness.status).toBe('fail');
      expect(liveness.evidence.join('\n')).toMatch(/event \d+: a workflow task failed \(PAYLOADS_TOO_LARGE/);
    }
  });

  it('shows history-size termination on v0 and ContinueAsNew on v1 (exit 0)', async () => {
    const result = await longrun(['repro', 'history-size', '--report-dir', reports, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout);
    const byBinary = (b: string) => summary.runs.filter((r: { binary: string }) => r.binary === b);
    const status = (run: { invariants: { id: string; status: string }[] }, id: string) => run.invariants.find((i) => i.id === id)?.status;
    const { count } = resolveScenario('history-size').scenario.runs;
    expect(byBinary('v0')).toHaveLength(count);
    expect(byBinary('v1')).toHaveLength(count);
    for (const run of byBinary('v0')) {
      expect(run.incidents).toEqual(['history-size']); // the size limit, not the count limit
      expect(status(run, 'history.no-termination')).toBe('fail');
      expect(status(run, 'history.continue-as-new')).toBe('fail');
      expect(status(run, 'run.liveness')).toBe('fail');
    }
    for (const run of byBinary('v1')) {
      expect(run.outcome).toBe('completed');
      expect(run.executions.length).toBeGreaterThan(1);
      expect(run.executions.slice(0, -1).every((e: { closedBy: string }) => e.closedBy === 'continued-as-new')).toBe(true);
      expect(status(run, 'history.no-termination')).toBe('pass');
      expect(status(run, 'history.continue-as-new')).toBe('pass');
    }
  });

  it('exits 1 on a regression: `check` judges the saved histories of a failing run; `replay` replays them (0)', async () => {
    const folder = readdirSync(reports).find((f) => f.endsWith('-tmprl1103')) as string;
    const histories = join(reports, folder, 'histories');
    expect(existsSync(histories)).toBe(true);
    const run = join(histories, readdirSync(histories)[0] as string);
    const check = await longrun(['check', run, '--blob-limit', '262144']);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/FAIL\s+wft\.no-retry-loop/);
    const replay = await longrun(['replay', join(run, 'execution-1.json'), '--binary', 'v1']);
    expect(replay.code, replay.stdout + replay.stderr).toBe(0);
    expect(replay.stdout).toContain('identical');
  });
});
