/**
 * CPU time and memory of a process for the benchmark, on top of src/load's /proc parsing:
 * the main thread's own CPU, peak RSS that can be reset between sections (`clear_refs` 5), so
 * each section reports its own peak, and the peaks of processes another module starts and ends.
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

export interface ProcessPeak {
  what: string;
  peakRssBytes: number;
  /** Its CPU time, user and system, at the last reading, ms. */
  cpuMs: number;
}

/** How often a process's high-water mark is read: the last reading before it exits is its peak. */
const PEAK_READ_EVERY_MS = 250;

/**
 * The peak RSS (and the CPU) of processes that another module starts and ends, from the
 * kernel's own high-water mark (VmHWM), read until each exits: a true peak, not a sample of RSS.
 */
export class ProcessPeaks {
  private readonly peaks = new Map<number, ProcessPeak>();
  private readonly timer = setInterval(() => this.read(), PEAK_READ_EVERY_MS);

  add(pid: number, what: string): void {
    this.peaks.set(pid, { what, peakRssBytes: 0, cpuMs: 0 });
    this.read();
  }

  /** Every process added, with its peak as last read. */
  get processes(): ProcessPeak[] {
    return [...this.peaks.values()];
  }

  /** The last reading; the processes keep their peaks. */
  stop(): void {
    clearInterval(this.timer);
    this.read();
  }

  private read(): void {
    for (const [pid, peak] of this.peaks) {
      try {
        const { cpuMs, peakRssBytes } = sampleProcess(pid);
        peak.peakRssBytes = Math.max(peak.peakRssBytes, peakRssBytes);
        peak.cpuMs = Math.max(peak.cpuMs, cpuMs);
      } catch {
        // Exited: its last reading stands.
      }
    }
  }
}
