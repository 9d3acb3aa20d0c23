/**
 * The server's ceiling on this machine: the ceiling workflow driven as fast as the server takes
 * it, for each payload size and number of workflows in flight, with no harness (no mocks, no
 * history fetch, no checks, no replay), on a fresh embedded server per configuration.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from '@temporalio/worker';
import { activityDataConverter, bundleOf } from '../../src/kernel/workers/workflow-bundles.ts';
import { drive } from '../../src/runner/run-driver.ts';
import { withBenchEnvironment } from '../bench-environment.ts';
import { bottleneckOf, type Meter, metered } from '../meter.ts';
import type { Bottleneck } from '../stats.ts';
import type { CeilingActivities, CeilingInput } from './ceiling-types.ts';

/** From a small tool output to just under the 2 MiB blob limit, as the kernel's requests range. */
export const CEILING_PAYLOAD_BYTES = [1_000, 64_000, 512_000, 1_900_000] as const;
export const CEILING_IN_FLIGHT = [1, 4, 16] as const;
/** Workflows keep starting for this long in each configuration. */
const WINDOW_MS = 6_000;
/** A workflow's history stays far below the server's default 50 MB history limit. */
const HISTORY_BUDGET_BYTES = 24_000_000;
const MAX_ACTIVITIES_PER_WORKFLOW = 100;

export interface CeilingSample {
  payloadBytes: number;
  inFlight: number;
  activities: number;
  activitiesPerSecond: number;
  /** Payload bytes the server took into history per second (each activity's input is stored once). */
  historyMBps: number;
  meter: Meter;
  bottleneck: Bottleneck;
}

const activities: CeilingActivities = { carry: async (payload) => payload.length };

async function measureOne(payloadBytes: number, inFlight: number, signal: AbortSignal): Promise<CeilingSample> {
  const perWorkflow = Math.max(1, Math.min(MAX_ACTIVITIES_PER_WORKFLOW, Math.floor(HISTORY_BUDGET_BYTES / payloadBytes)));
  const workflowBundle = await bundleOf(fileURLToPath(new URL('./ceiling-workflow.ts', import.meta.url)));
  const { value: done, meter } = await withBenchEnvironment(async ({ env, serverPid }) => {
    const taskQueue = `bench-ceiling-${payloadBytes}-${inFlight}`;
    const worker = await Worker.create({
      connection: env.workerConnection,
      namespace: env.namespace,
      taskQueue,
      workflowBundle,
      activities,
      dataConverter: activityDataConverter(),
      // The SDK's default slots, as the kernel's workers have: with as few slots as workflows in
      // flight, every slot is held by a waiting poll, no activity is dispatched eagerly with its
      // workflow task's completion, and each goes through matching (measured: ~100 ms an activity
      // at one in flight against ~55 ms with the defaults, at load 20).
    });
    const running = worker.run();
    try {
      return await metered(serverPid, async () => {
        let carried = 0;
        const input: CeilingInput = { payloadBytes, activities: perWorkflow };
        await drive({ count: 0, concurrency: inFlight, durationMs: WINDOW_MS, signal }, async (index) => {
          const moved = await env.client.workflow.execute('ceilingRun', {
            taskQueue,
            workflowId: `${taskQueue}-${index}`,
            args: [input],
          });
          carried += moved;
        });
        return carried;
      });
    } finally {
      worker.shutdown();
      await running;
    }
  });
  const seconds = meter.wallMs / 1000;
  return {
    payloadBytes,
    inFlight,
    activities: done,
    activitiesPerSecond: done / seconds,
    historyMBps: (done * payloadBytes) / 1e6 / seconds,
    meter,
    bottleneck: bottleneckOf(meter),
  };
}

export interface CeilingResult {
  /** The best of every configuration: the server's ceiling on this machine. */
  activitiesPerSecond: number;
  historyMBps: number;
  samples: CeilingSample[];
  /** longrun's history MB/s against the ceiling's at the same number in flight (with the throughput section). */
  longrunShare?: ShareOfCeiling[];
  /** The peer's (the bare kernel, then the SDK's replay; max-size runs), the floor under longrun's share. */
  peerShare?: PeerShareOfCeiling[];
}

export interface ShareOfCeiling {
  inFlight: number;
  longrunMBps: number;
  ceilingMBps: number;
  share: number;
}

export interface PeerShareOfCeiling {
  inFlight: number;
  peerMBps: number;
  ceilingMBps: number;
  share: number;
  /** longrun's best MB/s over the peer's at the same number in flight. */
  longrunOverPeer?: number;
}

/** The peer's best history rate at each number in flight as a share of the ceiling's, beside longrun's. */
export function peerShareOfCeiling(
  ceiling: readonly Pick<CeilingSample, 'inFlight' | 'historyMBps'>[],
  peer: readonly { concurrency: number; historyMBps: number }[],
  longrun: readonly { concurrency: number; historyMBps: number }[],
): PeerShareOfCeiling[] {
  const ours = shareOfCeiling(ceiling, longrun);
  return shareOfCeiling(ceiling, peer).map(({ inFlight, longrunMBps: peerMBps, ceilingMBps, share }) => {
    const longrunMBps = ours.find((s) => s.inFlight === inFlight)?.longrunMBps;
    return { inFlight, peerMBps, ceilingMBps, share, ...(longrunMBps !== undefined ? { longrunOverPeer: longrunMBps / peerMBps } : {}) };
  });
}

/** longrun's best history rate at each number in flight, as a share of the bare server's best there. */
export function shareOfCeiling(
  ceiling: readonly Pick<CeilingSample, 'inFlight' | 'historyMBps'>[],
  longrun: readonly { concurrency: number; historyMBps: number }[],
): ShareOfCeiling[] {
  const shares: ShareOfCeiling[] = [];
  for (const inFlight of new Set(ceiling.map((s) => s.inFlight))) {
    const ours = longrun.filter((s) => s.concurrency === inFlight);
    if (ours.length === 0) continue;
    const ceilingMBps = Math.max(...ceiling.filter((s) => s.inFlight === inFlight).map((s) => s.historyMBps));
    const longrunMBps = Math.max(...ours.map((s) => s.historyMBps));
    shares.push({ inFlight, longrunMBps, ceilingMBps, share: longrunMBps / ceilingMBps });
  }
  return shares;
}

/** Every configuration in turn; `signal` stops starting workflows (those in flight finish). */
export async function measureCeiling(log: (line: string) => void, signal: AbortSignal): Promise<CeilingResult> {
  const samples: CeilingSample[] = [];
  for (const payloadBytes of CEILING_PAYLOAD_BYTES) {
    for (const inFlight of CEILING_IN_FLIGHT) {
      if (signal.aborted) break;
      const sample = await measureOne(payloadBytes, inFlight, signal);
      samples.push(sample);
      log(
        `ceiling ${payloadBytes} B x${inFlight}: ${sample.activitiesPerSecond.toFixed(1)} activities/s, ` +
          `${sample.historyMBps.toFixed(2)} MB/s; ${sample.bottleneck.limit}`,
      );
    }
  }
  return {
    activitiesPerSecond: Math.max(0, ...samples.map((s) => s.activitiesPerSecond)),
    historyMBps: Math.max(0, ...samples.map((s) => s.historyMBps)),
    samples,
  };
}
