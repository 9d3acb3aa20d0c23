/**
 * Resident memory and CPU time of a process: another process's from /proc (Linux), this
 * process's from Node itself (the in-process worker lives here).
 */
import { readFileSync } from 'node:fs';
import type { ProcessUsage } from '../result/index.ts';

/** USER_HZ, the unit of /proc/<pid>/stat times: 100 on every Linux architecture Node supports. */
const CLOCK_TICKS_PER_SECOND = 100;

export interface ProcStat {
  command: string;
  parentPid: number;
  cpuSeconds: number;
  /** CPU time of the children it has waited for (and theirs), seconds: the time of processes gone. */
  reapedChildrenCpuSeconds: number;
  /** When the process started, in clock ticks after boot: with the pid, the process's identity. */
  startTicks: number;
}

/** Parses /proc/<pid>/stat. The command sits in parentheses and may hold spaces or ')'. */
export function parseProcStat(text: string): ProcStat {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) throw new Error(`/proc stat: no (command) in ${JSON.stringify(text.slice(0, 80))}`);
  // Fields after the command, numbered from 3 (state) as in proc(5): ppid is 4, utime 14, stime 15,
  // cutime 16, cstime 17, starttime 22.
  const fields = text
    .slice(close + 2)
    .trim()
    .split(' ');
  const field = (n: number) => {
    const value = Number(fields[n - 3]);
    if (!Number.isFinite(value)) throw new Error(`/proc stat: field ${n} is not a number in ${JSON.stringify(text.slice(0, 80))}`);
    return value;
  };
  return {
    command: text.slice(open + 1, close),
    parentPid: field(4),
    cpuSeconds: (field(14) + field(15)) / CLOCK_TICKS_PER_SECOND,
    reapedChildrenCpuSeconds: (field(16) + field(17)) / CLOCK_TICKS_PER_SECOND,
    startTicks: field(22),
  };
}

/** Resident set size from /proc/<pid>/status (VmRSS, in kB there), bytes. */
export function parseVmRssBytes(status: string): number {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match) throw new Error('/proc status: no VmRSS line');
  return Number(match[1]) * 1024;
}

/** Usage of another process, or undefined when it has exited (or is a zombie with no memory). */
export function readProcessUsage(pid: number): ProcessUsage | undefined {
  return readProcess(pid)?.usage;
}

/** The usage, and the CPU time of the children it has reaped. */
export function readProcess(pid: number): { usage: ProcessUsage; reapedChildrenCpuSeconds: number } | undefined {
  let stat: string;
  let status: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  if (!/^VmRSS:/m.test(status)) return undefined;
  const parsed = parseProcStat(stat);
  return {
    usage: { pid, rssBytes: parseVmRssBytes(status), cpuSeconds: parsed.cpuSeconds },
    reapedChildrenCpuSeconds: parsed.reapedChildrenCpuSeconds,
  };
}

/** Usage of this process: every thread, so the worker's native (Rust core) threads count too. */
export function ownUsage(): ProcessUsage {
  const cpu = process.cpuUsage();
  return { pid: process.pid, rssBytes: process.memoryUsage().rss, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}
