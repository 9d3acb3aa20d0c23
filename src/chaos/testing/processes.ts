import { readdirSync, readFileSync } from 'node:fs';

/** Pids of the processes (but this one) whose command line contains `needle` (arguments joined by NUL). */
export function processesRunning(needle: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(needle);
      } catch {
        return false;
      }
    })
    .map(Number);
}
