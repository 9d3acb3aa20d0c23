/**
 * The answers to Temporal's limits that `longrun arms` sets side by side, each a kernel binary:
 * none (v0, append-only), External Storage alone (v0-offload, Temporal's recommendation), the
 * state card alone (v1), both (v1-offload), the provider's own compaction (provider-compaction:
 * v0's loop, the OpenAI Responses API compacting past the trigger). Every arm runs the same
 * scenario (the same plans: the plans are drawn from the seed and the run ids, which do not name
 * the binary).
 */
import type { BinaryId } from '../kernel/index.ts';
import type { Scenario } from '../scenario/scenario-schema.ts';
import { armChaos, armRunTimeout, type Condition } from './arm-chaos.ts';

export interface Arm {
  binary: BinaryId;
  /** The answer it stands for, in the table. */
  answer: string;
}

export const ARMS: readonly Arm[] = [
  { binary: 'v0', answer: 'none (append-only)' },
  { binary: 'v0-offload', answer: 'External Storage alone' },
  { binary: 'v1', answer: 'state card alone' },
  { binary: 'v1-offload', answer: 'state card and External Storage' },
  { binary: 'provider-compaction', answer: 'provider-side compaction' },
];

export const ARM_BINARIES: readonly BinaryId[] = ARMS.map((arm) => arm.binary);

export function armOf(binary: string): Arm {
  const arm = ARMS.find((candidate) => candidate.binary === binary);
  if (!arm) throw new Error(`no arm ${binary}: the arms are ${ARM_BINARIES.join(', ')}`);
  return arm;
}

/**
 * The scenario one arm runs: the given one on the arm's binary alone, every invariant held (what
 * breaks is what the table reports), with the arm's chaos under `condition` in place of the
 * scenario's own chaos steps and faults (and a runs' timeout that allows for that chaos), and
 * none of its expectations: those name its binaries.
 */
export function armScenario(scenario: Scenario, arm: Arm, condition: Condition): Scenario {
  return {
    ...scenario,
    ...armChaos(arm.binary, condition),
    runs: { ...scenario.runs, timeout: armRunTimeout(scenario.runs.timeout, condition) },
    target: { binaries: [arm.binary] },
    expect: [{ on: arm.binary, hold: 'all' }],
  };
}
