/**
 * Cross-version replay: a run's histories replayed on workers of other binaries. The histories
 * of an older binary must replay on every newer one; a determinism error is a failure.
 */
import type { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { installRuntime } from '../environment/index.ts';
import { BINARIES, type BinaryId, type BinaryName, CURRENT_BINARY, RELEASES } from '../kernel/index.ts';
import { externalStorageOf, type OffloadTarget, workerOffload } from '../kernel/workers/offload.ts';
import { workflowBundle } from '../kernel/workers/workflow-bundles.ts';
import { JUDGED_AT_ONCE } from './judging-pool.ts';
import { activityInputsLeftOut } from './replay-activity-inputs.ts';
import type { ReplayOutcome } from './replay-verdict.ts';

interface ReplayJob {
  left: number;
  errors: string[];
  execution: number;
  done(errors: string[]): void;
  fail(error: unknown): void;
}

/**
 * A long-lived replay worker of one binary, fed through an async queue: a replay worker per run
 * costs a VM context, and the SDK never frees its source map consumer's WebAssembly memory
 * (~4.4 MB a worker), which runs out after ~960 replays in one process.
 */
class Replayer {
  private readonly items: { workflowId: string; history: temporal.api.history.v1.IHistory }[] = [];
  private readonly jobs: ReplayJob[] = [];
  private wake: (() => void) | undefined;
  private closed = false;
  private failure: unknown;
  readonly finished: Promise<void>;

  constructor(binary: BinaryId, offload: OffloadTarget | undefined) {
    this.finished = this.run(binary, offload).catch((error: unknown) => {
      // The replay worker itself failed: every replay waiting on it fails with it.
      this.failure = error;
      for (const job of this.jobs.splice(0)) job.fail(error);
    });
  }

  replay(workflowId: string, histories: readonly temporal.api.history.v1.IHistory[]): Promise<string[]> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (histories.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.jobs.push({ left: histories.length, errors: [], execution: 0, done: resolve, fail: reject });
      for (const history of histories) this.items.push({ workflowId, history });
      this.wake?.();
    });
  }

  /** Replays asked for and not yet answered. */
  get pending(): number {
    return this.jobs.length;
  }

  close(): Promise<void> {
    this.closed = true;
    this.wake?.();
    return this.finished;
  }

  private async *feed() {
    for (;;) {
      const item = this.items.shift();
      if (item) {
        yield item;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }

  private async run(binary: BinaryId, offload: OffloadTarget | undefined): Promise<void> {
    installRuntime(); // quiet logging where nothing installed it before (`longrun replay`)
    const bundle = await workflowBundle(binary);
    // debugMode off: the workflows replay in a thread of their own, in one reused V8 context. The
    // SDK's replay default (debugMode on) runs them on this thread, in a new context per workflow,
    // with promise hooks on every promise of this process, each compiling a function to find its workflow.
    const options = {
      workflowBundle: bundle,
      debugMode: false,
      dataConverter: {
        payloadCodecs: [activityInputsLeftOut],
        // A history that refers to stored payloads replays only where they can be read.
        ...(offload ? { externalStorage: externalStorageOf(workerOffload(binary, offload)) } : {}),
      },
    };
    for await (const result of Worker.runReplayHistories(options, this.feed())) {
      const job = this.jobs[0];
      if (!job) continue;
      job.execution++;
      if (result.error) job.errors.push(`execution ${job.execution}: ${result.error.name}: ${result.error.message.split('\n')[0]}`);
      if (--job.left === 0) {
        this.jobs.shift();
        job.done(job.errors);
      }
    }
  }
}

/** Replay workers by binary and store (each scenario that offloads has a store of its own). */
const replayers = new Map<string, Replayer[]>();

/**
 * An idle replay worker of the binary; else a new one, up to one per run judged at once (so no
 * judging waits on another's replay); else the least busy.
 */
function replayerOf(binary: BinaryId, offload?: OffloadTarget): Replayer {
  const key = offload ? `${binary} ${offload.endpoint}/${offload.bucket}` : binary;
  const pool = replayers.get(key) ?? [];
  replayers.set(key, pool);
  const idle = pool.find((replayer) => replayer.pending === 0);
  if (idle) return idle;
  if (pool.length < JUDGED_AT_ONCE) {
    const replayer = new Replayer(binary, offload);
    pool.push(replayer);
    return replayer;
  }
  return pool.reduce((least, replayer) => (replayer.pending < least.pending ? replayer : least));
}

export async function replayHistories(
  binary: BinaryId,
  workflowId: string,
  histories: readonly temporal.api.history.v1.IHistory[],
  offload?: OffloadTarget,
): Promise<ReplayOutcome> {
  return { binary, errors: await replayerOf(binary, offload).replay(workflowId, histories) };
}

let holds = 0;

/**
 * Keeps the replay workers alive until every hold is released; the last release closes them.
 * Each `runScenario` holds them for its own life, so no replay thread outlives it and keeps the
 * process up. A process that runs scenario after scenario on the same binaries (the benchmark's
 * overhead pairs) holds them across all of them: a replay worker's start (a thread, the bundle
 * evaluated) is paid once, not per scenario.
 */
export function holdReplayers(): () => Promise<void> {
  holds++;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    if (--holds === 0) await closeReplayers();
  };
}

/** The replay workers open in this process. */
export function replayWorkerCount(): number {
  return [...replayers.values()].flat().length;
}

/** Ends the replay workers (they are made again on the next replay). */
export async function closeReplayers(): Promise<void> {
  const open = [...replayers.values()].flat();
  replayers.clear();
  await Promise.all(open.map((r) => r.close()));
}

/**
 * Where a binary stands on the release line: a broken control where the release it breaks does,
 * an offloading binary where the release it runs does.
 */
function generation(binary: BinaryId): number {
  const { broken, base } = BINARIES[binary];
  return (RELEASES as readonly BinaryId[]).indexOf(base ?? (broken ? CURRENT_BINARY : binary));
}

/**
 * The binaries a run recorded on `recordedOn` must replay on, among those in play: itself and
 * every later one (v0's on v1, v2 and the broken controls; v1's on v2 and the controls that
 * break v2). A broken control's histories replay on itself only: no release has to keep them.
 * An offloading binary's histories hold references to its store: only a later binary that reads
 * the store has to replay them.
 */
export function replayTargets(recordedOn: BinaryId, inPlay: readonly BinaryId[]): BinaryId[] {
  if (BINARIES[recordedOn].broken) return [recordedOn];
  const own = generation(recordedOn);
  const readsStore = (binary: BinaryId) => !BINARIES[recordedOn].offload || BINARIES[binary].offload === true;
  return [...new Set<BinaryId>([recordedOn, ...inPlay.filter((binary) => generation(binary) > own && readsStore(binary))])];
}

/** How a run's histories are replayed: on which binaries, and by what. */
export interface ReplayPlan {
  /** The binaries a run recorded on `recordedOn` must replay on. */
  targets(recordedOn: BinaryName): BinaryName[];
  replay(target: BinaryName, workflowId: string, histories: readonly temporal.api.history.v1.IHistory[]): Promise<ReplayOutcome>;
  /** Whether the binary is a broken control: a failure to replay on it may be the control caught, on a release never. */
  control(binary: BinaryName): boolean;
  /** Whether the replayer may read the activities' inputs: without, they are left out of the histories it gets (replay-copy.ts). */
  readsActivityInputs: boolean;
}

/**
 * Our binaries: on the replay workers of this process, among the binaries in play. Every binary
 * in play replays its own runs, so their replay workers start now, while the runs go on: a
 * worker takes ~1 s to start, which the first judging would otherwise wait for.
 */
export function kernelReplayPlan(inPlay: readonly BinaryId[], offload?: OffloadTarget): ReplayPlan {
  for (const binary of inPlay) replayerOf(binary, offload);
  return {
    targets: (recordedOn) => replayTargets(recordedOn as BinaryId, inPlay),
    replay: (target, workflowId, histories) => replayHistories(target as BinaryId, workflowId, histories, offload),
    control: (binary) => binary in BINARIES && BINARIES[binary as BinaryId].broken,
    readsActivityInputs: false,
  };
}
