/**
 * Usage of a process and the processes it started, as one: PostgreSQL is a postmaster and a
 * process per backend and per background job, which come and go, so its memory is theirs
 * together. Memory is the proportional set size summed (/proc/<pid>/smaps_rollup): the shared
 * buffers every backend maps count once, not once per backend as summed RSS would. CPU time
 * counts the children that have ended through the parent's reaped-children time, so that it
 * only grows.
 */
import { readFileSync } from 'node:fs';
import type { ProcessUsage } from '../result/index.ts';
import { readProcess } from './process-usage.ts';
import { childPids } from './server-process.ts';

/** Pss from /proc/<pid>/smaps_rollup (kB there), bytes. */
export function parsePssBytes(smapsRollup: string): number {
  const match = /^Pss:\s+(\d+)\s+kB$/m.exec(smapsRollup);
  if (!match) throw new Error('/proc smaps_rollup: no Pss line');
  return Number(match[1]) * 1024;
}

function pssBytes(pid: number): number | undefined {
  try {
    return parsePssBytes(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
  } catch {
    return undefined; // ended while we looked (or a zombie, which holds no memory)
  }
}

/** Named by the parent's pid, `rssBytes` the summed proportional set size; undefined when the parent has exited. */
export function readProcessTreeUsage(pid: number): ProcessUsage | undefined {
  const parent = readProcess(pid);
  const parentPss = pssBytes(pid);
  if (!parent || parentPss === undefined) return undefined;
  let rssBytes = parentPss;
  let cpuSeconds = parent.usage.cpuSeconds + parent.reapedChildrenCpuSeconds;
  for (const child of childPids(pid)) {
    const usage = readProcess(child)?.usage;
    const pss = pssBytes(child);
    if (!usage || pss === undefined) continue; // ended while we looked: its time is the parent's now
    rssBytes += pss;
    cpuSeconds += usage.cpuSeconds;
  }
  return { pid, rssBytes, cpuSeconds };
}
