import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const TSX = createRequire(import.meta.url).resolve('tsx');
const MODULE = fileURLToPath(new URL('./closed-pipe.ts', import.meta.url));

describe('stopQuietlyWhenClosed', () => {
  it('ends a process whose reader closed its stdout with exit 0 and nothing on stderr', async () => {
    // A writer with more to say than the reader wants: it writes until the pipe is closed.
    const script = `const { stopQuietlyWhenClosed } = await import(${JSON.stringify(MODULE)});
      stopQuietlyWhenClosed(process.stdout);
      const chunk = 'x'.repeat(65536) + '\\n';
      const write = () => { while (process.stdout.write(chunk)); process.stdout.once('drain', write); };
      write();`;
    const child = spawn(process.execPath, ['--import', TSX, '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (data) => {
      stderr += data;
    });
    await new Promise((resolve) => child.stdout.once('data', resolve));
    child.stdout.destroy();
    const code = await new Promise((resolve) => child.once('exit', (exitCode, signal) => resolve(exitCode ?? signal)));
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });
});
