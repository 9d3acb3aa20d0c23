/**
 * What a scenario has done so far: runs started, ended and judged, the runs longrun had to
 * stop, and the progress line and load counters read from them while runs are in flight.
 */
import type { MockRecord } from '../../mocks/index.ts';
import type { LoadCounters, RunRecord } from '../result/index.ts';
import type { StoppedRun } from './expectations.ts';

export interface Progress {
  runsDone: number;
  runsStarted: number;
  /** Runs that have ended and are being judged (or wait for a judging place). */
  runsJudging: number;
  runsTotal?: number;
  turns: number;
  bytes: number;
  violations: number;
  elapsedMs: number;
}

export class RunTally {
  /** The judged runs' records, in the order their judging finished. */
  readonly records: RunRecord[] = [];
  readonly stopped: StoppedRun[] = [];
  runsStarted = 0;
  runsEnded = 0;

  /** A judged run; `stoppedBecause` when longrun stopped it. */
  add(runId: string, record: RunRecord, stoppedBecause: string | undefined): void {
    this.records.push(record);
    if (stoppedBecause) this.stopped.push({ runId, binary: record.binary, why: stoppedBecause });
  }

  /** `requests`: what the mocks received, turns answered and bytes sent included. */
  progress(requests: readonly MockRecord[], elapsedMs: number, runsTotal: number | undefined): Progress {
    const agent = requests.filter((r) => r.target === 'agent');
    return {
      runsDone: this.records.length,
      runsStarted: this.runsStarted,
      runsJudging: this.runsEnded - this.records.length,
      ...(runsTotal !== undefined ? { runsTotal } : {}),
      turns: agent.filter((r) => r.status === 200).length,
      bytes: agent.reduce((n, r) => n + r.requestBytes, 0),
      violations: this.records.reduce((n, r) => n + r.invariants.filter((i) => i.status === 'fail').length, 0),
      elapsedMs,
    };
  }

  counters(): LoadCounters {
    return { runsStarted: this.runsStarted, runsDone: this.records.length, turns: this.records.reduce((n, r) => n + r.turns.length, 0) };
  }
}
