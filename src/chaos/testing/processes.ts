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

/** Service processes of a multi-process server (server.topology services) that this process started and that still run. */
export function serviceProcessesLeft(): string[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return parent === process.pid && command.includes('--service') ? [`${pid} ${command.join(' ')}`] : [];
      } catch {
        return [];
      }
    });
}
