/**
 * The scenario's External Storage: an S3 server on loopback, started when a binary in play
 * offloads (`offload` in the registry), with the threshold its blob limit scales to. Every worker
 * of the scenario reads it; the offloading binaries' workers also store there.
 */
import { type ObjectStore, startObjectStore } from '../environment/index.ts';
import { BINARIES, type BinaryId } from '../kernel/index.ts';
import { type OffloadTarget, offloadThresholdBytes } from '../kernel/workers/offload.ts';
import type { Scenario } from '../scenario/scenario-schema.ts';
import { resolveLimits } from './limits.ts';

export interface OffloadStore {
  store: ObjectStore;
  /** Where the workers store and read, at the store itself. */
  target: OffloadTarget;
}

export function offloads(binaries: readonly string[]): boolean {
  return binaries.some((binary) => binary in BINARIES && BINARIES[binary as BinaryId].offload === true);
}

/** The store when a binary in play offloads; undefined otherwise. */
export async function startOffloadStore(scenario: Scenario, binaries: readonly string[]): Promise<OffloadStore | undefined> {
  if (!offloads(binaries)) return undefined;
  const store = await startObjectStore();
  const { blobLimitBytes } = resolveLimits(scenario, scenario.server.dynamicConfig);
  return { store, target: { endpoint: store.endpoint, bucket: store.bucket, thresholdBytes: offloadThresholdBytes(blobLimitBytes) } };
}
