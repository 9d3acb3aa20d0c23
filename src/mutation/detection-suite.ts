/**
 * The detection suite StrykerJS runs against every mutant of the kernel's decision code: a few
 * short v1 scenarios on one shared server, each reaching a different decision (compaction and
 * rebuild, ContinueAsNew, v0 histories replayed on v1, a failing compaction, cards over and at
 * their limit, the trigger and the budget at their exact byte, the payload guard, a page's text
 * beside its screenshot, a compaction input past the blob limit). A mutant is killed when any expectation fails: every invariant
 * holds and every run ends as it must on the kernel as written. Limits as in the mutant catalogue
 * (8x down).
 */
import { CARD_MAX_BYTES } from '../contract/limits.ts';
import { LIMITS, MUTANT_SERVER, TEXT_RUN, TEXTS_PAST_THE_LIMIT } from '../mutants/catalogue.ts';
import { resolveScenario } from '../scenario/registry.ts';
import { type Expectation, type RunEnding, type Scenario, type ScenarioInput, scenarioSchema } from '../scenario/scenario-schema.ts';

/**
 * A trigger passed at turn ~7, and a few turns past it: each failed compaction costs its retries.
 * A tail cap under two groups (~8 KB each, most of it a tool output): the accepted compaction
 * keeps the 2 groups and elides their tool outputs.
 */
const EARLY_TRIGGER = { ...LIMITS, compactionTriggerBytes: 60_000, tailMaxBytes: 12_000 };
const SHORT_TEXT_RUN = { ...TEXT_RUN, overrides: { ...TEXT_RUN.overrides, turns: 10 } };

/** v1 holds every invariant, and its runs end as they must: completed, unless a scenario says otherwise. */
const onV1 = (ends: RunEnding = 'completed'): Expectation[] => [
  { on: 'v1', hold: 'all' },
  { on: 'v1', ends },
];

function detection(name: string, input: Partial<ScenarioInput>, ends?: RunEnding): Scenario {
  const target = input.target ?? { binaries: ['v1'] };
  const replaysV0 = 'binaries' in target && target.binaries.includes('v0');
  return scenarioSchema.parse({
    name: `detect-${name}`,
    seed: 11,
    target: { binaries: ['v1'] },
    server: { dynamicConfig: MUTANT_SERVER },
    limits: LIMITS,
    runs: { count: 1, concurrency: 1, timeout: '60s' },
    shape: TEXT_RUN,
    ...input,
    // v0's runs are judged too: their replay on v1 is theirs, and a mutant of the shared turn loop can make v0 compact or end early.
    expect: [
      ...onV1(ends),
      ...(replaysV0
        ? [
            { on: 'v0', hold: ['replay.cross-version', 'compaction.trigger'] },
            { on: 'v0', ends: 'completed' },
          ]
        : []),
    ],
  });
}

/** A built-in scenario on the suite's server, every invariant held on v1 and every run completed. */
function builtIn(name: string): Scenario {
  const { scenario } = resolveScenario(name);
  return { ...scenario, server: { ...scenario.server, dynamicConfig: MUTANT_SERVER }, expect: onV1() };
}

export const DETECTION_SCENARIOS: readonly Scenario[] = [
  // v1 compacts, rebuilds and continues as new; v0's run crosses the trigger and is replayed on v1.
  // Its first compaction is answered a card after a preamble twice (rejected), then, on its last
  // attempt, one whose headings end in spaces (taken: a kernel that rejects it has nothing left).
  detection('compaction', {
    target: { binaries: ['v0', 'v1'] },
    limits: { ...LIMITS, continueAsNewBytes: 800_000 },
    shape: { ...TEXT_RUN, overrides: { ...TEXT_RUN.overrides, turns: 26 } },
    faults: {
      compaction: [
        { fault: { kind: 'card-untidy', style: 'preamble' }, when: { calls: [1, 2] } },
        { fault: { kind: 'card-untidy', style: 'trailing-spaces' }, when: { calls: [3] } },
      ],
    },
  }),
  // The trigger and the ContinueAsNew budget met at their exact byte, 8 groups kept of more that fit.
  builtIn('bounds-small-groups'),
  // The tail's byte cap at the exact byte, then two groups over the cap kept with a screenshot elided inside them.
  builtIn('bounds-big-groups'),
  // Two groups whose assistant texts alone pass the tail cap: the rebuild elides the texts.
  builtIn('bounds-long-texts'),
  // The first compaction fails (three 500s: context.compaction_failed, the run goes on); the next
  // is answered a card without its Verified section and a 12,000-byte card (both rejected), then a card of
  // exactly the card limit (accepted, on its third and last attempt).
  detection('compaction-faults', {
    limits: EARLY_TRIGGER,
    shape: SHORT_TEXT_RUN,
    faults: {
      compaction: [
        { fault: { kind: 'http-500' }, when: { calls: [1, 2, 3] } },
        { fault: { kind: 'card-missing-section', section: '## Verified' }, when: { calls: [4] } },
        { fault: { kind: 'oversized-card', bytes: 12_000 }, when: { calls: [5] } },
        { fault: { kind: 'oversized-card', bytes: CARD_MAX_BYTES } },
      ],
    },
  }),
  // No compaction: the request grows past the blob limit and the guard elides screenshots and tool outputs.
  // Both kinds must go: by turn 30 the tool outputs alone (~460 KB) and the screenshots alone (~370 KB)
  // each pass the 256 KiB limit, so a guard blind to either gives up while eliding could fit (run.liveness).
  // Every 4th turn brings a screenshot (big, elided first) and 16 KB of text (not big): a guard that
  // counts the screenshot's savings twice sends the text over the limit (TMPRL1103).
  // The 3 MB ContinueAsNew budget, spent at turn 18, counts the requests as the guard left them.
  // maxTurns below the 36 turns the model would take: the run ends at max-turns, exactly there.
  detection('guard', {
    runs: { count: 1, concurrency: 1, maxTurns: 30, timeout: '60s' },
    limits: { ...LIMITS, compactionTriggerBytes: 10_000_000, continueAsNewBytes: 3_000_000 },
    shape: {
      screenshots: { share: 0 },
      overrides: { turns: 36, bytesPerTurn: 16_000, callsPerTurn: 2, screenshotEvery: 4, screenshotBytes: 40_000 },
    },
  }),
  // A browser agent: every call a screenshot whose caption carries the page's text (24 KB, big, in
  // the default language mix) beside a 4 KB image. The page texts alone pass the blob limit by turn
  // 11, so the guard must elide a text part of a message that also holds an image, and say so: a
  // guard that takes every part for a screenshot mislabels it (rebuild.contract), one that skips
  // text parts beside an image gives up while eliding could fit. No compaction.
  detection('page-texts', {
    limits: { ...LIMITS, compactionTriggerBytes: 10_000_000 },
    shape: {
      screenshots: { share: 0 },
      overrides: { turns: 16, callsPerTurn: 1, screenshotEvery: 1, screenshotBytes: 3_000, screenshotPageTextBytes: 24_000 },
    },
  }),
  // Texts that take the request past the blob limit in one turn: the compaction input elides them
  // (a guard that cannot fails the compaction, then the run ends with PayloadGuard).
  detection('compaction-input', TEXTS_PAST_THE_LIMIT),
  // What no request guard may elide passes the blob limit by turn 4: a 200 KB system prompt and 20 KB
  // assistant texts. The run must end there with PayloadGuard rather than schedule the request (a guard
  // that lets it through loops on TMPRL1103). No compaction, which could drop the texts.
  detection(
    'guard-gives-up',
    {
      limits: { ...LIMITS, compactionTriggerBytes: 10_000_000 },
      shape: {
        systemPromptBytes: [
          [0, 200_000],
          [1, 200_000],
        ],
        screenshots: { share: 0 },
        overrides: { targetTokens: 400_000, turns: 8, bytesPerTurn: 1_000, narrationBytes: 20_000 },
      },
    },
    'failed',
  ),
  // A tool that fails for good: the sandbox answers 500 to every attempt at turn 2 (run_tool's 5,
  // 7.5 s of its backoff). The kernel answers the model with an error text for it and goes on.
  detection('tool-failure', {
    shape: { ...TEXT_RUN, overrides: { ...TEXT_RUN.overrides, turns: 4 } },
    faults: { sandbox: [{ fault: { kind: 'http-500' }, when: { turns: [2] } }] },
  }),
];
