/**
 * The scenario's External Storage: an S3 server on loopback, started when a binary in play
 * offloads (`offload` in the registry), with the threshold its blob limit scales to. Every worker
 * of the scenario reads it; the offloading binaries' workers also store there.
 */
import { type OffloadStore, startOffloadStore } from '../kernel/workers/offload.ts';
import type { Scenario } from '../scenario/scenario-schema.ts';
import { resolveLimits } from './limits.ts';

export function startScenarioStore(scenario: Scenario, binaries: readonly string[]): Promise<OffloadStore | undefined> {
  return startOffloadStore(binaries, resolveLimits(scenario, scenario.server.dynamicConfig).blobLimitBytes);
}
