/**
 * The mutant catalogue: each deliberately broken kernel binary, the invariants that must catch
 * it, and the small scenario that exposes it. A mutant is caught when every listed invariant
 * fails on at least one of its runs.
 */
import { CARD_MAX_BYTES } from '../contract/limits.ts';
import type { BinaryId } from '../kernel/index.ts';
import { resolveScenario } from '../scenario/registry.ts';
import { type Scenario, type ScenarioInput, scenarioSchema } from '../scenario/scenario-schema.ts';

export interface Mutant {
  binary: BinaryId;
  catches: NonNullable<Extract<ScenarioInput['expect'][number], { violates: unknown }>['violates']>;
  scenario: Scenario;
}

/** Limits scaled ~8x down: runs cross the trigger in ~17 turns and the blob limit in ~29 on v0. */
export const MUTANT_SERVER = { 'limit.blobSize.error': 262_144, 'limit.blobSize.warn': 65_536 };
export const LIMITS = { blobLimitBytes: 262_144, compactionTriggerBytes: 150_000, tailMaxBytes: 32_768 };
/** A stalled run lasts until its timeout: keep it short. */
const STALLING_RUNS = { count: 1, concurrency: 1, timeout: '15s' };
export const TEXT_RUN = { screenshots: { share: 0 }, overrides: { turns: 40, bytesPerTurn: 8_000 } };

/**
 * An agent whose 90 KB texts take the request from under the trigger (~190 KB) to past the blob
 * limit (~280 KB) in one turn, twice in 8 turns: the compaction input must elide assistant texts
 * to fit, the only payload where a guard may.
 */
export const TEXTS_PAST_THE_LIMIT = {
  limits: { ...LIMITS, compactionTriggerBytes: 230_000 },
  shape: { screenshots: { share: 0 }, overrides: { targetTokens: 400_000, turns: 8, bytesPerTurn: 500, narrationBytes: 90_000 } },
} satisfies Partial<ScenarioInput>;

function mutant(binary: BinaryId, catches: Mutant['catches'], input: Partial<ScenarioInput>, on: BinaryId = binary): Mutant {
  const scenario = scenarioSchema.parse({
    name: `mutant-${binary}`,
    seed: 11,
    target: { binaries: [binary] },
    server: { dynamicConfig: MUTANT_SERVER },
    limits: LIMITS,
    runs: { count: 1, concurrency: 1, timeout: '90s' },
    shape: TEXT_RUN,
    ...input,
    expect: [{ on, violates: catches }],
  });
  return { binary, catches, scenario };
}

/**
 * A built-in scenario played on a broken control instead of v1 (where it holds every
 * invariant). It keeps its name, so its run ids and with them the planned bytes its limits were
 * chosen from stay the same; it runs on the catalogue's shared server, whose 256 KiB blob
 * limit its payloads (under 100 KB) stay far from.
 */
function onBuiltIn(binary: BinaryId, catches: Mutant['catches'], name: string): Mutant {
  const { scenario } = resolveScenario(name);
  return {
    binary,
    catches,
    scenario: {
      ...scenario,
      target: { binaries: [binary] },
      server: { ...scenario.server, dynamicConfig: MUTANT_SERVER },
      expect: [{ on: binary, violates: catches }],
    },
  };
}

/** The bounds of the spec, each broken by one control and bitten in a fast built-in scenario. */
export const BOUND_MUTANTS: readonly Mutant[] = [
  onBuiltIn('tail-nine-groups', ['rebuild.contract'], 'bounds-small-groups'),
  onBuiltIn('card-tail-limit', ['compaction.card'], 'bounds-small-groups'),
  onBuiltIn('trigger-inclusive', ['compaction.trigger'], 'bounds-small-groups'),
  onBuiltIn('can-at-budget', ['history.continue-as-new'], 'bounds-small-groups'),
  onBuiltIn('can-once', ['history.continue-as-new'], 'bounds-small-groups'),
  onBuiltIn('tail-one-group', ['rebuild.contract'], 'bounds-big-groups'),
  onBuiltIn('tail-cap-off-by-one', ['rebuild.contract'], 'bounds-big-groups'),
  onBuiltIn('tail-keeps-texts', ['rebuild.contract'], 'bounds-long-texts'),
];

export const MUTANTS: readonly Mutant[] = [
  // v0's histories cross the trigger; the ungated binary cannot replay them.
  mutant('ungated', ['replay.cross-version'], { target: { binaries: ['v0', 'ungated'] } }, 'v0'),
  mutant('can-while-pending', ['can.clean-boundary'], { limits: { ...LIMITS, continueAsNewBytes: 1_500_000 } }),
  mutant('split-group', ['rebuild.contract'], {}),
  // The server takes 2 MiB; the kernel's own budget is 256 KiB: the unguarded screenshots land in history.
  mutant('guard-ignores-screenshots', ['payload.ceiling'], {
    server: { dynamicConfig: { 'limit.blobSize.error': 2_097_152 } },
    shape: { screenshots: { share: 0 }, overrides: { turns: 12, bytesPerTurn: 2_000, screenshotEvery: 3, screenshotBytes: 300_000 } },
  }),
  mutant('trigger-late', ['compaction.trigger'], {}),
  mutant('compaction-fatal', ['compaction.failure-continues'], { faults: { compaction: [{ fault: { kind: 'http-500' } }] } }),
  mutant('card-unchecked', ['compaction.card'], { faults: { compaction: [{ fault: { kind: 'oversized-card', bytes: 12_000 } }] } }),
  // The oversized card is mostly Chinese: past the limit in bytes, within it in UTF-16 units, so the control takes it.
  mutant('card-in-units', ['compaction.card'], { faults: { compaction: [{ fault: { kind: 'oversized-card', bytes: 12_000 } }] } }),
  // Every compaction answers a card of exactly the card limit: v1 takes it, the control rejects it.
  // 20 turns: the control fails every compaction past the trigger (~turn 17), each one three attempts.
  mutant('card-limit-exclusive', ['compaction.card'], {
    shape: { ...TEXT_RUN, overrides: { ...TEXT_RUN.overrides, turns: 20 } },
    faults: { compaction: [{ fault: { kind: 'oversized-card', bytes: CARD_MAX_BYTES } }] },
  }),
  // Every compaction crashes in the activity's own code (a TypeError), and the run goes on as after a failing model.
  mutant('compaction-no-settings', ['compaction.failure-continues'], {}),
  mutant('dropped-counts-kept', ['rebuild.contract'], {}),
  // The guard's target is 8 KiB at the catalogue's 256 KiB blob limit: the run ends on its payload guard with a small dialog.
  mutant('guard-target-margin', ['run.liveness'], {}),
  // Texts past the blob limit: the control's compaction input stays over it, compaction fails, and the run ends on its guard.
  mutant('compaction-keeps-texts', ['compaction.failure-continues'], TEXTS_PAST_THE_LIMIT),
  // Its digests show non-ASCII windows past 1,024 bytes: the compaction model refuses them, and v1 goes on without a card.
  mutant('digest-in-units', ['requests.accepted'], {}),
  // The tail's groups hold screenshots: the control sends them to the compaction model, which refuses every compaction.
  onBuiltIn('compaction-sees-screenshots', ['requests.accepted'], 'bounds-big-groups'),
  // Every compaction names the agent's model: the compaction model refuses it, and v1 goes on without a card.
  mutant('compaction-on-agent-model', ['requests.accepted'], {}),
  // The catalogue scales three limits of five: the control refuses every run at its input.
  mutant('limits-whole', ['run.liveness'], {}),
  // Stalled runs: longrun stops them at their timeout, and run.liveness names why they stalled.
  mutant('compaction-retries-forever', ['run.liveness'], {
    runs: { ...STALLING_RUNS },
    faults: { compaction: [{ fault: { kind: 'http-500' } }] },
  }),
  mutant('can-budget-per-run', ['run.liveness'], { runs: { ...STALLING_RUNS }, limits: { ...LIMITS, continueAsNewBytes: 300_000 } }),
  // The provider compacts past the trigger (~turn 17), and the control sends everything anyway:
  // past the blob limit at turn 28, the workflow task fails with PAYLOADS_TOO_LARGE (TMPRL1103).
  mutant('compaction-item-ignored', ['wft.no-retry-loop'], {}),
  // The default shape's non-ASCII text weighs ~7% more in bytes than in units: requests pass the
  // trigger and the budget uncounted, the tail outgrows its cap, the carried counters fall short.
  mutant('utf16-sizes', ['compaction.trigger', 'history.continue-as-new', 'rebuild.contract', 'can.carry-over'], {
    limits: { ...LIMITS, continueAsNewBytes: 1_500_000 },
  }),
  // v1's histories carry the server's suggestion (past 200 events, ~turn 12); the control continues as new there in replay.
  mutant(
    'history-ungated',
    ['replay.cross-version'],
    {
      target: { binaries: ['v1', 'history-ungated'] },
      server: { dynamicConfig: { ...MUTANT_SERVER, 'limit.historyCount.suggestContinueAsNew': 200 } },
    },
    'v1',
  ),
  // The tail counts its groups twice: it keeps fewer than fit.
  mutant('tail-counts-twice', ['elision.minimal'], {}),
  // Past the blob limit with no compaction, the guard elides: small tool outputs before the screenshot that would do.
  mutant('elision-smallest-first', ['elision.minimal'], {
    limits: { ...LIMITS, compactionTriggerBytes: 10_000_000, continueAsNewBytes: 3_000_000 },
    runs: { count: 1, concurrency: 1, maxTurns: 30, timeout: '90s' },
    shape: {
      screenshots: { share: 0 },
      overrides: { turns: 36, bytesPerTurn: 16_000, callsPerTurn: 2, screenshotEvery: 4, screenshotBytes: 40_000 },
    },
  }),
  // Two compactions: the second digest does not show the card the run holds, and the compaction model refuses it.
  mutant('digest-drops-system', ['requests.accepted'], {}),
  // The first compaction's digest does not show the text the run was last answered: refused.
  mutant('digest-drops-texts', ['requests.accepted'], {}),
  // The card, written from a digest without the tools' results, lacks the latest outputs' identifiers.
  mutant('digest-drops-tool-results', ['compaction.card'], {}),
  ...BOUND_MUTANTS,
];
