/**
 * CPU time and memory of a process from /proc (Linux): how the benchmark tells the server's
 * share of the work from this process's. Peak RSS can be reset between sections
 * (`clear_refs` 5), so each section reports its own peak.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc's CPU times are in these ticks. */
const TICKS_PER_SECOND = 100;

export interface ProcSample {
  pid: number;
  /** User plus system CPU time, ms. */
  cpuMs: number;
  rssBytes: number;
  /** Peak RSS since the process started or since resetPeakRss, bytes. */
  peakRssBytes: number;
}

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
export function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** utime + stime of a /proc/<pid>/stat line, ms. */
export function statCpuMs(stat: string): number {
  const fields = statFields(stat);
  // Fields 14 and 15 of stat(5), counted from the state field (3).
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** A `VmHWM:` or `VmRSS:` line of /proc/<pid>/status, bytes. */
export function statusKb(status: string, field: 'VmHWM' | 'VmRSS'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

/** CPU time of a process's main thread alone (its first task), ms. */
export function mainThreadCpuMs(pid: number): number {
  return statCpuMs(readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8'));
}

export function sampleProcess(pid: number): ProcSample {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return {
    pid,
    cpuMs: statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8')),
    rssBytes: statusKb(status, 'VmRSS'),
    peakRssBytes: statusKb(status, 'VmHWM'),
  };
}

/** Resets the peak RSS the kernel keeps for a process (ours or our child's). */
export function resetPeakRss(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not permitted on some kernels: the peak then counts from the process's start.
  }
}

/** Child processes of `parent` whose command line contains `needle`. */
export function childProcesses(parent: number, needle: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = statFields(readFileSync(`/proc/${entry}/stat`, 'utf8'));
      if (Number(fields[1]) !== parent) continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmdline.includes(needle)) found.push(Number(entry));
    } catch {
      // The process exited while we looked.
    }
  }
  return found;
}
