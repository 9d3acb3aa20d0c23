/**
 * What the mocks take from a scenario, in one place for every harness: the seed and shape the
 * runs are planned from, the faults, the compaction model every run's settings name, and the
 * card limit the compaction model writes cards to (a scenario that scales `limits.cardMaxBytes`
 * gets cards of that size, not the spec's 8 KiB).
 */
import type { MockProviderOptions } from '../../mocks/index.ts';
import { LONGRUN_SETTINGS } from '../contract/kernel-api.ts';
import type { Scenario } from './scenario-schema.ts';

export function mockOptionsOf(
  scenario: Scenario,
): Pick<MockProviderOptions, 'seed' | 'shape' | 'faults' | 'compactionModels' | 'cardMaxBytes' | 'toolMap' | 'conversationMessages'> {
  const external = 'external' in scenario.target ? scenario.target.external : undefined;
  const toolMap = external?.tools;
  const messages = external?.conversation?.messages;
  return {
    seed: scenario.seed,
    shape: scenario.shape,
    faults: scenario.faults,
    compactionModels: [LONGRUN_SETTINGS.compaction.model],
    ...(scenario.limits.cardMaxBytes !== undefined ? { cardMaxBytes: scenario.limits.cardMaxBytes } : {}),
    ...(toolMap ? { toolMap } : {}),
    ...(messages !== undefined ? { conversationMessages: messages } : {}),
  };
}
