/**
 * CPU time and memory of a process for the benchmark, on top of src/load's /proc parsing:
 * the main thread's own CPU, and peak RSS that can be reset between sections (`clear_refs` 5),
 * so each section reports its own peak.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseProcStat } from '../src/load/index.ts';

export interface ProcSample {
  /** User plus system CPU time, ms. */
  cpuMs: number;
  /** Peak RSS since the process started or since resetPeakRss, bytes. */
  peakRssBytes: number;
}

/** The `VmHWM:` line of /proc/<pid>/status (peak RSS), bytes; 0 when absent. */
export function peakRssBytes(status: string): number {
  const match = /^VmHWM:\s+(\d+) kB/m.exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

function cpuMs(stat: string): number {
  return parseProcStat(stat).cpuSeconds * 1000;
}

/** CPU time of a process's main thread alone (its first task), ms. */
export function mainThreadCpuMs(pid: number): number {
  return cpuMs(readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8'));
}

export function sampleProcess(pid: number): ProcSample {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return {
    cpuMs: cpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8')),
    peakRssBytes: peakRssBytes(status),
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
