import { describe, expect, it } from 'vitest';
import { lastMeaningfulLine } from './foreign-command.ts';

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
