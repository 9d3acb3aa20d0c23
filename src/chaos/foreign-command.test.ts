import { describe, expect, it } from 'vitest';
import { withEnv } from '../shared/testing/with-env.ts';
import { describeCommand, describeExit, formatSeconds, lastMeaningfulLine, runForeignCommand, stderrTail } from './foreign-command.ts';

describe('lastMeaningfulLine', () => {
  it("names a Node crash by its error, not by Node's version trailer or the stack", () => {
    const stderr = [
      '/work/agent/worker.js:12',
      "    throw new Error('TEMPORAL_ADDRESS is not set');",
      '    ^',
      '',
      'Error: TEMPORAL_ADDRESS is not set',
      '    at Object.<anonymous> (/work/agent/worker.js:12:11)',
      '    at Module._compile (node:internal/modules/cjs/loader:1554:14)',
      '',
      'Node.js v20.20.2',
      '',
    ].join('\n');
    expect(lastMeaningfulLine(stderr)).toBe('Error: TEMPORAL_ADDRESS is not set');
  });

  it("names a Go panic by its cause, not by the goroutine dump or go run's exit status", () => {
    const stderr = [
      'panic: dial tcp 127.0.0.1:7233: connect: connection refused',
      '',
      'goroutine 1 [running]:',
      'main.main()',
      '\t/work/go-kernel/main.go:40 +0x1d4',
      'exit status 2',
    ].join('\n');
    expect(lastMeaningfulLine(stderr)).toBe('panic: dial tcp 127.0.0.1:7233: connect: connection refused');
  });

  it("keeps a Python traceback's last line, and a command's own last word", () => {
    const traceback = [
      'Traceback (most recent call last):',
      '  File "worker.py", line 3, in <module>',
      "ModuleNotFoundError: No module named 'temporalio'",
    ].join('\n');
    expect(lastMeaningfulLine(traceback)).toBe("ModuleNotFoundError: No module named 'temporalio'");
    expect(lastMeaningfulLine('starting\nworker: namespace nope not found\n')).toBe('worker: namespace nope not found');
  });

  it('says nothing for no output, and falls back to the trailer when that is all there is', () => {
    expect(lastMeaningfulLine('')).toBe('');
    expect(lastMeaningfulLine('\n\n')).toBe('');
    expect(lastMeaningfulLine('Node.js v20.20.2\n')).toBe('Node.js v20.20.2');
  });
});

describe('runForeignCommand', () => {
  it('a command killed by a signal of its own exited with it, after the time it really ran', async () => {
    const outcome = await runForeignCommand({ argv: ['sh', '-c', 'echo "about to abort" >&2; kill -ABRT $$'] }, [], 120_000);
    expect(outcome).toMatchObject({ code: null, signal: 'SIGABRT', stderr: 'about to abort\n' });
    expect(outcome.failure).toMatch(/^exited with SIGABRT after \d\.\d s$/);
    expect(outcome.elapsedMs).toBeLessThan(10_000);
  });

  it('a command longrun stopped at its timeout says so; one that will not start says why; an exit code is not a failure', async () => {
    expect((await runForeignCommand({ argv: ['sleep', '5'] }, [], 200)).failure).toBe('stopped by longrun after its timeout of 0.2 s');
    expect((await runForeignCommand({ argv: ['no-such-command-5e1'] }, [], 1_000)).failure).toBe('could not start: ENOENT');
    const exited = await runForeignCommand({ argv: ['sh', '-c', 'exit 3'] }, [], 1_000);
    expect(exited).toMatchObject({ code: 3 });
    expect(exited.failure).toBeUndefined();
  });
});

describe('describeExit and stderrTail', () => {
  it('names the signal or the code and the seconds, a tenth where it tells something', () => {
    expect(describeExit(null, 'SIGABRT', 2_140)).toBe('exited with SIGABRT after 2.1 s');
    expect(describeExit(3, null, 45_400)).toBe('exited with code 3 after 45 s');
    expect(formatSeconds(120_000)).toBe('120 s');
  });

  it('keeps the last few non-blank lines, each cut', () => {
    expect(stderrTail('a\n\nb\nc\n\n', 2)).toEqual(['b', 'c']);
    expect(stderrTail(`${'y'.repeat(1000)}\n`)[0]).toHaveLength(240);
    expect(stderrTail('')).toEqual([]);
  });
});

describe('describeCommand', () => {
  it("names a scenario's command and folder, their controls shown, never sent to the terminal", () => {
    expect(describeCommand({ argv: ['python', 'worker.py'], cwd: '/srv/agent' })).toBe('`python worker.py` in /srv/agent');
    expect(describeCommand({ argv: ['sh', '-c', 'x\u001B]0;pwned\u0007'], cwd: '/srv/\r' })).toBe(
      '`sh -c x\\u001B]0;pwned\\u0007` in /srv/\\u000D',
    );
  });
});

describe('the environment of a build or a replayer', () => {
  it("holds no TEMPORAL_API_KEY: neither connects to the user's cluster", async () => {
    const outcome = await withEnv({ TEMPORAL_API_KEY: 'secret' }, () =>
      runForeignCommand({ argv: ['sh', '-c', 'echo "key=$TEMPORAL_API_KEY." >&2'] }, [], 10_000),
    );
    expect(outcome.stderr.trim()).toBe('key=.');
  });
});
