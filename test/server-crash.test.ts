/**
 * The embedded server dies under longrun (a Go panic two seconds after it started, as one was
 * seen on a loaded machine): longrun says so in one line and exits 2, where it used to retry for
 * a minute and end in an internal error, or, when the server died before the workers were made,
 * print its line and never exit.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolveTemporalBinary } from '../src/environment/index.ts';

describe('an embedded server that dies while longrun needs it', () => {
  it.each([
    ['before the workers are made', 1],
    ['while the runs go on', 6],
  ])(
    '%s: one line, exit 2, no internal error',
    async (_when, afterSeconds) => {
      const dir = mkdtempSync(join(tmpdir(), 'longrun-server-crash-'));
      const script = join(dir, 'temporal-server');
      const real = (await resolveTemporalBinary()).path;
      writeFileSync(
        script,
        `#!/bin/sh\n"${real}" "$@" &\npid=$!\nsleep ${afterSeconds}\nkill -9 $pid\necho "panic: runtime error: invalid memory address or nil pointer dereference" >&2\nexit 2\n`,
      );
      chmodSync(script, 0o755);
      const bin = fileURLToPath(new URL('../bin/longrun.js', import.meta.url));
      const child = spawn(process.execPath, [bin, 'run', 'smoke', '--report-dir', dir], {
        env: { ...process.env, LONGRUN_TEMPORAL_BIN: script },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stdout.resume();
      child.stderr.on('data', (d: Buffer) => (stderr += d));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code, stderr).toBe(2);
      const said = stderr.split('\n').filter((line) => line.startsWith('longrun'));
      expect(said.at(-1), stderr).toMatch(
        /^longrun run: (the Temporal server \(pid \d+, .*\) exited while longrun needed it|Namespace default was not found)/,
      );
      expect(stderr).not.toMatch(/internal error/);
    },
    150_000,
  );
});
