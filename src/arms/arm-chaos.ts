/**
 * The chaos each arm meets in `longrun arms`: what every answer meets (worker kills, the agent
 * model rate-limited and failing), and what breaks its own mechanism: the compaction model
 * failing and writing oversized cards for the state card, the store cut off and slowed for
 * External Storage. Seeded like any scenario's chaos, so an arm meets the same chaos on every
 * run of the comparison.
 */
import { BINARIES, type BinaryId } from '../kernel/index.ts';
import { durationMs, type Scenario, scenarioSchema } from '../scenario/index.ts';

export const CONDITIONS = ['calm', 'chaos'] as const;
export type Condition = (typeof CONDITIONS)[number];

const AGENT_FAULTS = [
  { fault: { kind: 'http-429', retryAfterSeconds: 1 }, when: { probability: 0.03 } },
  { fault: { kind: 'http-503' }, when: { probability: 0.03 } },
];
const COMPACTION_FAULTS = [
  { fault: { kind: 'http-500' }, when: { probability: 0.3 } },
  { fault: { kind: 'oversized-card' }, when: { probability: 0.1 } },
];
const WORKER_KILLS = [{ action: 'kill-worker', probability: 0.02, times: 2 }];
const STORE_FAULTS = [
  { action: 'network', link: 'workers-store', fault: 'down', for: '5s', atTurn: 6 },
  { action: 'network', link: 'workers-store', fault: 'latency', latencyMs: 300, jitterMs: 100, for: '10s', atTurn: 14 },
];

/** Whether the binary's workflow compacts into the state card (v1, and what is built on it). */
function compactsIntoCard(binary: BinaryId): boolean {
  return binary === 'v1' || BINARIES[binary].base === 'v1';
}

/** The arm's chaos under `condition`: none when calm; its own when chaos. */
export function armChaos(binary: BinaryId, condition: Condition): Pick<Scenario, 'chaos' | 'faults'> {
  const own = condition === 'chaos';
  const card = own && compactsIntoCard(binary);
  const store = own && BINARIES[binary].offload === true;
  // Parsed as a scenario's, so the steps and faults are checked and defaulted as any scenario's are.
  const { chaos, faults } = scenarioSchema.parse({
    name: 'arm-chaos',
    seed: 1,
    target: { binaries: [binary] },
    chaos: own ? [...WORKER_KILLS, ...(store ? STORE_FAULTS : [])] : [],
    faults: own ? { agent: AGENT_FAULTS, ...(card ? { compaction: COMPACTION_FAULTS } : {}) } : {},
    expect: [{ on: binary, hold: 'all' }],
  });
  return { chaos, faults };
}

/**
 * What a run under the arm's chaos is given beyond the scenario's timeout. Each of its stalls
 * costs a workflow task timeout (10 s) or more: a workflow worker killed, the store cut off (a
 * workflow task that fails again on its retry is left to time out). A run is then stopped only
 * when it stalls for good, not when a plan timed for calm meets the chaos.
 */
export const CHAOS_TIMEOUT_ALLOWANCE_MS = 60_000;

/** A run's timeout under `condition`: the scenario's when calm, with the allowance under chaos. */
export function armRunTimeout(timeout: Scenario['runs']['timeout'], condition: Condition): Scenario['runs']['timeout'] {
  return condition === 'calm' ? timeout : durationMs(timeout) + CHAOS_TIMEOUT_ALLOWANCE_MS;
}

/** What the arm's chaos is, in words, for the table. */
export function chaosLabel(binary: BinaryId, condition: Condition): string {
  if (condition === 'calm') return 'none';
  return [
    'worker kills, agent model faults',
    ...(compactsIntoCard(binary) ? ['compaction model faults'] : []),
    ...(BINARIES[binary].offload ? ['store outage'] : []),
  ].join(', ');
}
