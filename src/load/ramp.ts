/**
 * Ramps: an open-model arrival rate that changes over time, in stages, as k6's
 * ramping-arrival-rate does: from `startRate` runs per second, each stage moves the rate
 * linearly to its `target` over its duration. The schedule says when the n-th run starts:
 * where the number of arrivals so far (the integral of the rate) reaches n.
 */
import type { Ramp } from '../scenario/soak-schema.ts';

export interface ArrivalSchedule {
  /** The whole ramp, ms: no run starts after it. */
  durationMs: number;
  /** Runs the ramp starts in all (the integral of its rate, rounded up). */
  arrivals: number;
  /** When run `index` (0-based) starts, ms after the ramp began; undefined past the ramp. */
  offsetMs(index: number): number | undefined;
  /** The arrival rate at `ms` after the ramp began, runs per second. */
  rateAt(ms: number): number;
  /** The stage (0-based) that `ms` after the ramp began falls in; undefined past the ramp. */
  stageAt(ms: number): number | undefined;
}

interface Segment {
  fromMs: number;
  durationMs: number;
  fromRate: number;
  toRate: number;
  /** Arrivals before this segment. */
  arrivalsBefore: number;
}

export function checkRamp(ramp: Ramp): void {
  if (!(ramp.startRate >= 0) || !Number.isFinite(ramp.startRate))
    throw new Error(`ramp.startRate: want a rate >= 0, got ${ramp.startRate}`);
  if (ramp.stages.length === 0) throw new Error('ramp.stages: want at least one stage');
  ramp.stages.forEach((stage, i) => {
    if (!(stage.durationMs > 0) || !Number.isFinite(stage.durationMs)) {
      throw new Error(`ramp.stages.${i}.duration: want a positive duration, got ${stage.durationMs} ms`);
    }
    if (!(stage.target >= 0) || !Number.isFinite(stage.target))
      throw new Error(`ramp.stages.${i}.target: want a rate >= 0, got ${stage.target}`);
  });
}

export function arrivalSchedule(ramp: Ramp): ArrivalSchedule {
  checkRamp(ramp);
  const segments: Segment[] = [];
  let fromMs = 0;
  let fromRate = ramp.startRate;
  let arrivalsBefore = 0;
  for (const stage of ramp.stages) {
    segments.push({ fromMs, durationMs: stage.durationMs, fromRate, toRate: stage.target, arrivalsBefore });
    arrivalsBefore += ((fromRate + stage.target) / 2) * (stage.durationMs / 1000);
    fromMs += stage.durationMs;
    fromRate = stage.target;
  }
  const durationMs = fromMs;
  const total = arrivalsBefore;
  const segmentAt = (ms: number) => segments.find((s) => ms < s.fromMs + s.durationMs);

  return {
    durationMs,
    arrivals: Math.ceil(total - 1e-9),
    offsetMs(index) {
      if (!Number.isInteger(index) || index < 0) throw new Error(`offsetMs: index must be a whole number >= 0, got ${index}`);
      // Arrival n comes when the arrivals so far reach n: run 0 at the first instant the rate is > 0.
      const segment = segments.find((s) => arrivalsIn(s) > 0 && index < s.arrivalsBefore + arrivalsIn(s) - 1e-9);
      if (!segment) return undefined;
      const wanted = Math.max(0, index - segment.arrivalsBefore);
      return segment.fromMs + secondsToReach(segment, wanted) * 1000;
    },
    rateAt(ms) {
      const segment = segmentAt(ms);
      if (!segment || ms < 0) return 0;
      return segment.fromRate + ((segment.toRate - segment.fromRate) * (ms - segment.fromMs)) / segment.durationMs;
    },
    stageAt(ms) {
      if (ms < 0) return undefined;
      const at = segments.findIndex((s) => ms < s.fromMs + s.durationMs);
      return at < 0 ? undefined : at;
    },
  };
}

function arrivalsIn(segment: Segment): number {
  return ((segment.fromRate + segment.toRate) / 2) * (segment.durationMs / 1000);
}

/**
 * Seconds into the segment at which `wanted` arrivals have come: the root of
 * a s + (b - a) s^2 / (2 D) = wanted, written so that a = 0 (a ramp from zero) and a = b both work.
 */
function secondsToReach(segment: Segment, wanted: number): number {
  if (wanted === 0) return 0;
  const a = segment.fromRate;
  const slope = (segment.toRate - a) / (segment.durationMs / 1000);
  return (2 * wanted) / (a + Math.sqrt(Math.max(0, a * a + 2 * slope * wanted)));
}
