/**
 * The detection suite StrykerJS runs against every mutant of the kernel's decision code: a few
 * short v1 scenarios on one shared server, each reaching a different decision (compaction and
 * rebuild, ContinueAsNew, v0 histories replayed on v1, a failing compaction, an oversized card,
 * the payload guard). A mutant is killed when any expectation fails; all hold on the kernel as
 * written. Limits as in the mutant catalogue (8x down).
 */
import { LIMITS, MUTANT_SERVER, TEXT_RUN } from '../mutants/catalogue.ts';
import { type Scenario, type ScenarioInput, scenarioSchema } from '../scenario/scenario-schema.ts';

/** A trigger passed at turn ~7, and a few turns past it: each failed compaction costs seconds of retries. */
const EARLY_TRIGGER = { ...LIMITS, compactionTriggerBytes: 60_000 };
const SHORT_TEXT_RUN = { ...TEXT_RUN, overrides: { ...TEXT_RUN.overrides, turns: 10 } };

function detection(name: string, input: Partial<ScenarioInput>): Scenario {
  const target = input.target ?? { binaries: ['v1'] };
  const replaysV0 = 'binaries' in target && target.binaries.includes('v0');
  return scenarioSchema.parse({
    name: `detect-${name}`,
    seed: 11,
    target: { binaries: ['v1'] },
    server: { dynamicConfig: MUTANT_SERVER },
    limits: LIMITS,
    runs: { count: 1, concurrency: 1, timeout: '30s' },
    shape: TEXT_RUN,
    ...input,
    // v0's runs are judged too: their replay on v1 is theirs, and a mutant of the shared turn loop can make v0 compact.
    expect: [{ on: 'v1', hold: 'all' }, ...(replaysV0 ? [{ on: 'v0', hold: ['replay.cross-version', 'compaction.trigger'] }] : [])],
  });
}

export const DETECTION_SCENARIOS: readonly Scenario[] = [
  // v1 compacts, rebuilds and continues as new; v0's run crosses the trigger and is replayed on v1.
  detection('compaction', {
    target: { binaries: ['v0', 'v1'] },
    limits: { ...LIMITS, continueAsNewBytes: 800_000 },
    shape: { ...TEXT_RUN, overrides: { ...TEXT_RUN.overrides, turns: 26 } },
  }),
  detection('compaction-failure', {
    limits: EARLY_TRIGGER,
    shape: SHORT_TEXT_RUN,
    faults: { compaction: [{ fault: { kind: 'http-500' } }] },
  }),
  detection('oversized-card', {
    limits: EARLY_TRIGGER,
    shape: SHORT_TEXT_RUN,
    faults: { compaction: [{ fault: { kind: 'oversized-card', bytes: 12_000 } }] },
  }),
  // No compaction: the request grows to the blob limit and the guard elides screenshots and tool outputs.
  // maxTurns below the 36 turns the model would take: the run ends at max-turns, exactly there.
  detection('guard', {
    runs: { count: 1, concurrency: 1, maxTurns: 30, timeout: '30s' },
    limits: { ...LIMITS, compactionTriggerBytes: 10_000_000 },
    shape: { screenshots: { share: 0 }, overrides: { turns: 36, bytesPerTurn: 8_000, screenshotEvery: 4, screenshotBytes: 20_000 } },
  }),
];
