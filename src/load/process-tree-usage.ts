/**
 * Usage of a process and the processes it started, as one: PostgreSQL is a postmaster and a
 * process per backend and per background job, which come and go, so its memory is theirs
 * together. RSS is summed (shared memory a process touched counts in each, as `ps` shows it);
 * CPU time counts the children that have ended through the postmaster's reaped-children time,
 * so that it only grows.
 */
import type { ProcessUsage } from '../result/index.ts';
import { readProcess } from './process-usage.ts';
import { childPids } from './server-process.ts';

/** Named by the parent's pid; undefined when the parent has exited. */
export function readProcessTreeUsage(pid: number): ProcessUsage | undefined {
  const parent = readProcess(pid);
  if (!parent) return undefined;
  let { rssBytes, cpuSeconds } = parent.usage;
  cpuSeconds += parent.reapedChildrenCpuSeconds;
  for (const child of childPids(pid)) {
    const usage = readProcess(child)?.usage;
    if (!usage) continue; // ended while we looked: its time is the parent's now
    rssBytes += usage.rssBytes;
    cpuSeconds += usage.cpuSeconds;
  }
  return { pid, rssBytes, cpuSeconds };
}
