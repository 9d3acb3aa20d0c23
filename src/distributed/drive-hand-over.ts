/**
 * When the driver workflow (drive-workflow.ts) continues as new, and what it hands the next
 * execution (docs/decisions/driving-on-the-queue.md): each binary's place in the schedule, from
 * which the next execution starts the runs not yet started and names every run of the drive.
 * Workflow-safe: it imports nothing but harness-ids.ts.
 */
import { drivenRunWorkflowId } from './harness-ids.ts';

/**
 * Runs one execution of the driver starts before it continues as new, when its input names
 * none: at about ten events a run, an execution's history stays near 10,000 events, a fifth of
 * the server's 51,200 limit. The server's suggestion to continue as new comes first where it is
 * set lower (by default at 4 Ki events, about 400 runs).
 */
export const DEFAULT_RUNS_PER_EXECUTION = 1_000;

/** The bound the driver keeps to: the input's, else the default; at least one run, so that each execution goes on. */
export function runsPerExecutionOf(input: { runsPerExecution?: number }): number {
  const bound = input.runsPerExecution ?? DEFAULT_RUNS_PER_EXECUTION;
  if (!Number.isInteger(bound) || bound < 1) throw new RangeError(`runs per execution must be a whole number of at least 1, not ${bound}`);
  return bound;
}

/** One binary's place in the schedule: its runs started so far and when its schedule began (workflow time). */
export interface SharePosition {
  next: number;
  startedAtMs: number;
}

/** What an execution of the driver hands the next: every run it started has ended. */
export interface DriveCarry {
  /** Each binary's place; its runs 0 to `next - 1` have been started, watched and judged. */
  shares: Record<string, SharePosition>;
  /** Executions of the drive before the next one. */
  executions: number;
}

/**
 * The binaries in the order their shares start in an execution: rotated by the executions
 * before it, so that a share whose first burst reaches the bound does not keep another from
 * ever starting a run.
 */
export function sharesInOrder<T>(binaries: readonly T[], executions: number): T[] {
  return binaries.map((_, at) => binaries[(at + executions) % binaries.length] as T);
}

/**
 * What the drive returns: where each binary's share ended, from which its runs' children are
 * named (childrenOfDrive). Its size is the binaries', not the runs': a list of the children's
 * ids, about 60 bytes a run, would pass the server's 2 MB limit on a result past about 30,000 runs.
 */
export interface DriveOutcome {
  /** The drive's start, as its input gave it: the runs' ids carry it. */
  startedAtMs: number;
  /** Each binary's place, in the order of the drive's binaries. */
  shares: DriveCarry['shares'];
}

/** The workflow ids of every run's child the drive `driveId` started, as its outcome names them. */
export function childrenOfDrive(driveId: string, outcome: DriveOutcome): string[] {
  return childrenOf(driveId, outcome.startedAtMs, Object.keys(outcome.shares), outcome.shares);
}

/** The workflow ids of every run's child the drive has started, binary by binary, in index order. */
export function childrenOf(driveId: string, startedAtMs: number, binaries: readonly string[], shares: DriveCarry['shares']): string[] {
  return binaries.flatMap((binary) =>
    Array.from({ length: shares[binary]?.next ?? 0 }, (_, index) => drivenRunWorkflowId(driveId, startedAtMs, binary, index)),
  );
}
