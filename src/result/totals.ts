import { percentile } from '../shared/percentile.ts';
import type { RunRecord, Summary } from './summary.ts';

/** A summary's totals, from its runs: one definition for the runner and the reports' fixtures. */
export function totalsOf(runs: readonly RunRecord[]): Summary['totals'] {
  const latencies = runs.flatMap((r) => r.turns.flatMap((t) => (t.latencyMs !== undefined ? [t.latencyMs] : [])));
  return {
    runs: runs.length,
    turns: runs.reduce((n, r) => n + r.turns.length, 0),
    requestBytes: runs.reduce((n, r) => n + r.turns.reduce((m, t) => m + t.requestBytes, 0), 0),
    violations: runs.reduce((n, r) => n + r.invariants.filter((i) => i.status === 'fail').length, 0),
    latency: { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), p99: percentile(latencies, 0.99) },
  };
}
