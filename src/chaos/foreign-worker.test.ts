import { describe, expect, it } from 'vitest';
import { crashMessage } from './foreign-worker.ts';

describe('crashMessage', () => {
  it('says what happened to a foreign worker: its signal or code, its real time, its last word and the end of its stderr', () => {
    const stderr = 'worker started\nthread panicked at core/src/lib.rs:12\nFatal Python error: Aborted\n';
    expect(crashMessage('foreign worker py-v1 (`python worker.py`)', { code: null, signal: 'SIGABRT' }, 2_140, stderr)).toBe(
      'foreign worker py-v1 (`python worker.py`) exited with SIGABRT after 2.1 s: Fatal Python error: Aborted; its stderr ended: worker started | thread panicked at core/src/lib.rs:12 | Fatal Python error: Aborted',
    );
    expect(crashMessage('foreign worker go-v1', { code: 3, signal: null }, 400, '')).toBe(
      'foreign worker go-v1 exited with code 3 after 0.4 s: no output',
    );
  });
});
