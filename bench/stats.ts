/** The benchmark's arithmetic: pure, so the tests can check it without timing anything. */

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** One repetition of the overhead benchmark: the same runs on longrun and on the baseline, back to back (ms per turn, of wall or CPU time). */
export interface OverheadPair {
  longrun: number;
  baseline: number;
}

export interface OverheadRatio {
  /** Median over the pairs of longrun's time per turn / the baseline's. */
  ratio: number;
  minRatio: number;
  maxRatio: number;
  /** Medians of the two sides, ms per turn. */
  longrun: number;
  baseline: number;
  target: number;
  withinTarget: boolean;
}

/** Issue 17's targets: wall time per turn at most 5% over the bare baseline, CPU at most 15% over. */
export const OVERHEAD_TARGET = 1.05;
export const CPU_OVERHEAD_TARGET = 1.15;
/** Issue 42's targets against the peer that replays too: wall as above, CPU at most 10% over. */
export const PEER_CPU_TARGET = 1.1;

/**
 * Paired ratios, not a ratio of means: each pair ran under the same load of a shared machine,
 * so the median of the pairs' ratios shrugs off a repetition slowed by a neighbour.
 */
export function overheadRatio(pairs: readonly OverheadPair[], target = OVERHEAD_TARGET): OverheadRatio {
  if (pairs.length === 0) throw new Error('overheadRatio: needs at least one pair');
  for (const [i, pair] of pairs.entries()) {
    if (!(pair.baseline > 0)) throw new Error(`pairs[${i}].baseline: must be positive, got ${pair.baseline}`);
  }
  const ratios = pairs.map((p) => p.longrun / p.baseline);
  const ratio = median(ratios);
  return {
    ratio,
    minRatio: Math.min(...ratios),
    maxRatio: Math.max(...ratios),
    longrun: median(pairs.map((p) => p.longrun)),
    baseline: median(pairs.map((p) => p.baseline)),
    target,
    withinTarget: ratio <= target,
  };
}

export interface CpuEvidence {
  wallMs: number;
  /** This process: all threads, and its main thread alone. */
  selfCpuMs: number;
  mainThreadCpuMs: number;
  serverCpuMs: number;
  cores: number;
  /** The machine's 1-minute load average at the end (other users' work included). */
  loadAverage: number;
}

export interface Bottleneck {
  /** Cores kept busy over the wall time by each. */
  server: number;
  mainThread: number;
  workflowThreads: number;
  limit: 'server' | 'harness main thread' | 'machine CPU' | 'round trips';
  why: string;
}

/** A resource counts as saturated from this share of its capacity. */
const SATURATED = 0.85;

/**
 * What held the work back, from CPU evidence: the harness's main thread (activities, mocks,
 * checks and replay all run on it) saturates at one core; the server and the workflow threads
 * share the machine's cores with whatever else runs on it.
 */
export function bottleneck(e: CpuEvidence): Bottleneck {
  if (!(e.wallMs > 0)) throw new Error(`wallMs: must be positive, got ${e.wallMs}`);
  const server = e.serverCpuMs / e.wallMs;
  const mainThread = e.mainThreadCpuMs / e.wallMs;
  const workflowThreads = Math.max(0, e.selfCpuMs - e.mainThreadCpuMs) / e.wallMs;
  const ours = server + mainThread + workflowThreads;
  const shares = `server ${server.toFixed(2)}, main thread ${mainThread.toFixed(2)}, other threads ${workflowThreads.toFixed(2)} of ${e.cores} cores`;
  const base = { server, mainThread, workflowThreads };
  if (mainThread >= SATURATED) return { ...base, limit: 'harness main thread', why: `the main thread is saturated (${shares})` };
  if (ours >= SATURATED * e.cores) {
    return server >= mainThread + workflowThreads
      ? { ...base, limit: 'server', why: `the cores are busy, mostly with the server (${shares})` }
      : { ...base, limit: 'machine CPU', why: `the cores are busy, mostly with this process (${shares})` };
  }
  if (e.loadAverage >= e.cores) {
    return { ...base, limit: 'machine CPU', why: `other work holds the cores (load ${e.loadAverage.toFixed(1)}; ${shares})` };
  }
  return { ...base, limit: 'round trips', why: `no CPU is saturated: the turns wait on round trips (${shares})` };
}
