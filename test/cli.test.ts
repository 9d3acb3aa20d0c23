/**
 * The CLI as a user meets it: help, bad input, incident reproductions, and judging the
 * histories a failing run leaves behind.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual(['longrun: internal error: boom from a timer (LONGRUN_DEBUG=1 prints the stack)']);
  });

  it('names file, line and field of a malformed scenario, and exits non-zero', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'longrun-scenario-'));
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, 'name: broken\nseed: 3\nruns:\n  count: 2\n  concurrency: many\nexpect:\n  - { on: v1, hold: all }\n');
    const result = await longrun(['run', file]);
    expect(result.code).not.toBe(0);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:5:\\d+: runs\\.concurrency`));
    const validate = await longrun(['scenario', 'validate', file]);
    expect(validate.code).toBe(1);
    expect(validate.stdout).toContain('broken.yaml:5:');
  });

  it('reproduces TMPRL1103 on v0, stops the retry loop, and passes on v1 (exit 0)', async () => {
    const result = await longrun(['repro', 'tmprl1103', '--report-dir', reports]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/met\s+on v0: tmprl1103 reproduces/);
    expect(result.stdout).toMatch(/met\s+on v1: every invariant holds/);
    expect(result.stdout).toContain('PAYLOADS_TOO_LARGE');
    const folder = readdirSync(reports).find((f) => f.endsWith('-tmprl1103'));
    expect(folder).toBeDefined();
    const summary = JSON.parse(readFileSync(join(reports, folder as string, 'summary.json'), 'utf8'));
    const v0 = summary.runs.filter((r: { binary: string }) => r.binary === 'v0');
    expect(v0.length).toBeGreaterThan(0);
    for (const run of v0) {
      expect(run.incidents).toContain('tmprl1103');
      expect(run.executions.at(-1).reason).toMatch(/longrun stopped a workflow task retry loop/);
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

  it('judges the saved histories of a failing run with `check`, and replays them with `replay`', async () => {
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
