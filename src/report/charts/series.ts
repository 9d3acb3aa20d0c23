/** Turning runs into what the charts draw, within a size budget whatever the number of runs. */

import type { RunRecord } from '../../result/index.ts';
import { isFailingRun, peakRequestBytes, turnsInOrder } from '../run-facts.ts';
import type { Point } from './plot.ts';

/** Runs drawn one by one; the others are summed up by the band. */
export const MAX_DRAWN_RUNS = 20;
/** Points of one drawn line, at most (each bucket keeps its minimum and its maximum). */
export const MAX_POINTS_PER_LINE = 600;
/** Columns of the aggregate band. */
export const BAND_BUCKETS = 300;

export interface RunSelection {
  drawn: RunRecord[];
  omitted: number;
}

/** Failing runs first, then the largest by peak request bytes, at most `cap`. */
export function selectRuns(runs: readonly RunRecord[], cap = MAX_DRAWN_RUNS): RunSelection {
  const ranked = runs
    .map((run, index) => ({ run, index, failing: isFailingRun(run), peak: peakRequestBytes(run) }))
    .sort((a, b) => Number(b.failing) - Number(a.failing) || b.peak - a.peak || a.index - b.index);
  return { drawn: ranked.slice(0, cap).map((entry) => entry.run), omitted: Math.max(0, runs.length - cap) };
}

/**
 * Thins a line (points in x order) to at most `maxPoints`, keeping each bucket's lowest and
 * highest point in order, so peaks such as a payload over the ceiling never disappear.
 */
export function decimate(points: readonly Point[], maxPoints = MAX_POINTS_PER_LINE): Point[] {
  if (points.length <= maxPoints) return [...points];
  const buckets = Math.max(1, Math.floor(maxPoints / 2));
  const size = points.length / buckets;
  const kept: Point[] = [];
  for (let bucket = 0; bucket < buckets; bucket++) {
    const slice = points.slice(Math.floor(bucket * size), Math.floor((bucket + 1) * size));
    if (slice.length === 0) continue;
    let low = 0;
    let high = 0;
    slice.forEach((point, i) => {
      if (point.y < (slice[low]?.y ?? Infinity)) low = i;
      if (point.y > (slice[high]?.y ?? -Infinity)) high = i;
    });
    for (const i of low === high ? [low] : [Math.min(low, high), Math.max(low, high)]) {
      const point = slice[i];
      if (point) kept.push(point);
    }
  }
  return kept;
}

export interface BandColumn {
  x: number;
  low: number;
  high: number;
}

/** Lowest and highest y of all the lines in each of `buckets` equal slices of x. */
export function band(lines: readonly (readonly Point[])[], buckets = BAND_BUCKETS): BandColumn[] {
  const points = lines.flat();
  if (points.length === 0) return [];
  // No spread into Math.min: hundreds of thousands of points would overflow the stack.
  const xMin = points.reduce((min, p) => Math.min(min, p.x), Infinity);
  const xMax = points.reduce((max, p) => Math.max(max, p.x), -Infinity);
  const width = (xMax - xMin) / buckets || 1;
  const columns = new Map<number, BandColumn>();
  for (const point of points) {
    const bucket = Math.min(buckets - 1, Math.floor((point.x - xMin) / width));
    const column = columns.get(bucket);
    if (column) {
      column.low = Math.min(column.low, point.y);
      column.high = Math.max(column.high, point.y);
    } else {
      columns.set(bucket, { x: xMin + (bucket + 0.5) * width, low: point.y, high: point.y });
    }
  }
  return [...columns.entries()].sort((a, b) => a[0] - b[0]).map(([, column]) => column);
}

/** Request bytes per turn. */
export function requestLine(run: RunRecord): Point[] {
  return turnsInOrder(run).map((turn) => ({ x: turn.turn, y: turn.requestBytes }));
}

export interface AccumulatedLines {
  /** One line per execution: request bytes accumulated since the execution started. */
  executions: { execution: number; points: Point[] }[];
  /** The last point of each execution that continued as new. */
  continueAsNew: { execution: number; point: Point }[];
}

export function accumulatedLines(run: RunRecord): AccumulatedLines {
  const executions = new Map<number, Point[]>();
  for (const turn of turnsInOrder(run)) {
    const points = executions.get(turn.execution) ?? [];
    const before = points.at(-1)?.y ?? 0;
    points.push({ x: turn.turn, y: before + turn.requestBytes });
    executions.set(turn.execution, points);
  }
  const lines = [...executions.entries()].sort((a, b) => a[0] - b[0]).map(([execution, points]) => ({ execution, points }));
  const continueAsNew = lines.flatMap(({ execution, points }) => {
    const last = points.at(-1);
    return last && run.executions[execution - 1]?.closedBy === 'continued-as-new' ? [{ execution, point: last }] : [];
  });
  return { executions: lines, continueAsNew };
}

/** The request bytes of a run's turn, when it was recorded. */
export function requestBytesAt(run: RunRecord, turn: number): number | undefined {
  return run.turns.find((t) => t.turn === turn)?.requestBytes;
}
