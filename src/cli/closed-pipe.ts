/**
 * A reader that stops early (`longrun forecast runs/ | head`) closes longrun's stdout; the next
 * write fails with EPIPE. Stop quietly then, as Unix tools do, with the exit code so far, instead
 * of an internal error for a write nobody was reading.
 */
import type { Writable } from 'node:stream';

export function stopQuietlyWhenClosed(stream: Writable, exit: (code: number) => void = (code) => process.exit(code)): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
}
