/**
 * The embedded server dies under longrun (a Go panic, as one was seen on a loaded machine):
 * longrun says so in one line and exits 2, where it used to retry for a minute and end in an
 * internal error, or, when the server died before the workers were made, print its line and
 * never exit.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolveTemporalBinary } from '../src/environment/index.ts';
import { longSmokeScenario } from './long-smoke.ts';
import { commandLine, descendants } from './processes.ts';

/** longrun on a long smoke (it must not end before the strike); `strike` is called with each stderr chunk so far and longrun's pid. */
async function runSmoke(env: NodeJS.ProcessEnv, dir: string, strike: (stderr: string, pid: number) => void) {
  const bin = fileURLToPath(new URL('../bin/longrun.js', import.meta.url));
  const child = spawn(process.execPath, [bin, 'run', longSmokeScenario(), '--report-dir', dir], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stdout.resume();
  child.stderr.on('data', (d: Buffer) => {
    stderr += d;
    strike(stderr, child.pid as number);
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stderr };
}

function expectOneLineExit2({ code, stderr }: { code: number | null; stderr: string }) {
  expect(code, stderr).toBe(2);
  const said = stderr.split('\n').filter((line) => line.startsWith('longrun'));
  expect(said.at(-1), stderr).toMatch(
    /^longrun run: (the Temporal server \((pid \d+, )?embedded .*\) exited while longrun needed it|Namespace default was not found)/,
  );
  expect(stderr).not.toMatch(/internal error/);
}

describe('an embedded server that dies while longrun needs it', () => {
  it('before the workers are made: one line, exit 2, no internal error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'longrun-server-crash-'));
    const script = join(dir, 'temporal-server');
    const real = (await resolveTemporalBinary()).path;
    // It answers, then panics a second later.
    writeFileSync(
      script,
      `#!/bin/sh\n"${real}" "$@" &\npid=$!\nsleep 1\nkill -9 $pid\necho "panic: runtime error: invalid memory address" >&2\nexit 2\n`,
    );
    chmodSync(script, 0o755);
    expectOneLineExit2(await runSmoke({ ...process.env, LONGRUN_TEMPORAL_BIN: script }, dir, () => {}));
  }, 150_000);

  it('while the runs go on: one line, exit 2, no internal error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'longrun-server-crash-'));
    let killed = false;
    const result = await runSmoke(process.env, dir, (stderr, pid) => {
      // At the first progress with turns done, runs in flight: the server goes.
      if (killed || !/runs \d+\/\d+ \(\d+ in flight[^)]*\) · [1-9]\d* turns/.test(stderr)) return;
      const server = descendants(pid).find((p) => / server start-dev /.test(commandLine(p)));
      if (server === undefined) return;
      killed = true;
      process.kill(server, 'SIGKILL');
    });
    expect(killed, result.stderr).toBe(true);
    expectOneLineExit2(result);
  }, 150_000);
});
