/**
 * Shrinking a failing scenario, as a property-based tester shrinks a failing input: each knob
 * (binaries, runs, concurrency, turns, item sizes, faults, chaos steps) is made smaller in turn,
 * by half first and then by less, and a change is kept when the smaller scenario still fails
 * the same way and every expectation the original met is still met (a recorded run's incident
 * at its turn stays at that turn). The server's limits are never touched: smaller items under
 * the same limits break them later or not at all, and such a step is rejected.
 */
import { stringify } from 'yaml';
import type { Summary } from '../result/index.ts';
import { parseScenario, type Scenario } from '../scenario/index.ts';
import { InterruptedError } from '../shared/interrupted.ts';

/** The scenario as written (YAML's plain data), so that what is kept is written back as the author wrote it. */
export type ScenarioData = Record<string, unknown>;

/** How a scenario fails: `v0 reproduces history-size`, `v0 fails history.no-termination`. */
export function failureOf(summary: Summary): Set<string> {
  const failure = new Set<string>();
  for (const run of summary.runs) {
    for (const incident of run.incidents) failure.add(`${run.binary} reproduces ${incident}`);
    for (const invariant of run.invariants) if (invariant.status === 'fail') failure.add(`${run.binary} fails ${invariant.id}`);
  }
  return failure;
}

export interface Candidate {
  /** What changed, in words: `shape.overrides.turns 24 -> 12`. */
  change: string;
  data: ScenarioData;
}

const FRACTIONS = [1 / 2, 1 / 4, 1 / 8];

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A copy of `data` with the value at `path` replaced (the mappings on the way copied, never shared). */
function withValue(data: ScenarioData, path: readonly string[], value: unknown): ScenarioData {
  const [key, ...rest] = path as [string, ...string[]];
  const here = { ...data };
  here[key] = rest.length === 0 ? value : withValue(record(data[key]) ?? {}, rest, value);
  return here;
}

function valueAt(data: ScenarioData, path: readonly string[]): unknown {
  let here: unknown = data;
  for (const key of path) here = record(here)?.[key];
  return here;
}

/** Smaller whole numbers: by half, a quarter, an eighth, then one less (each distinct). */
function smallerCounts(n: number, min: number): number[] {
  const out: number[] = [];
  for (const less of [...FRACTIONS.map((f) => Math.max(1, Math.floor(n * f))), 1]) {
    const next = Math.max(min, n - less);
    if (next < n && !out.includes(next)) out.push(next);
  }
  return out;
}

/** Smaller sizes (integers when the size was one). */
function smallerSizes(n: number): number[] {
  return FRACTIONS.map((f) => (Number.isInteger(n) ? Math.round(n * (1 - f)) : n * (1 - f))).filter((m) => m > 0 && m < n);
}

/**
 * An expectation once only `kept` binaries run: one on a binary no longer run would judge
 * nothing and goes with it, and a replay names only binaries still run (a binary's replayer is
 * the one its runs load), or goes when it names none.
 */
function expectationOn(expectation: unknown, kept: readonly unknown[]): unknown[] {
  const e = record(expectation);
  if (!e) return [expectation];
  if ('on' in e && !kept.includes(e.on)) return [];
  const replay = record(e.replay);
  if (!replay) return [expectation];
  const lists = Object.fromEntries(
    (['on', 'failsOn'] as const)
      .filter((key) => Array.isArray(replay[key]))
      .map((key) => [key, (replay[key] as unknown[]).filter((b) => kept.includes(b))]),
  );
  if (Object.values(lists).every((list) => list.length === 0)) return [];
  return [{ ...e, replay: { ...replay, ...lists } }];
}

const SIZE_PATHS = [
  ['shape', 'overrides', 'bytesPerTurn'],
  ['shape', 'overrides', 'screenshotBytes'],
  ['shape', 'overrides', 'screenshotPageTextBytes'],
  ['shape', 'overrides', 'narrationBytes'],
  ['shape', 'scale'],
] as const;

/**
 * The knobs by name, each a list of candidates to try in order (the first that still fails is kept).
 * `failing` names the binaries the failure shows on: the others' runs are dropped first.
 */
export function candidatesOf(data: ScenarioData, failing: ReadonlySet<string>): Map<string, Candidate[]> {
  const knobs = new Map<string, Candidate[]>();
  const binaries = valueAt(data, ['target', 'binaries']);
  if (Array.isArray(binaries)) {
    const kept = binaries.filter((b) => failing.has(String(b)));
    if (kept.length > 0 && kept.length < binaries.length) {
      const expect = Array.isArray(data.expect) ? data.expect.flatMap((e) => expectationOn(e, kept)) : [];
      knobs.set('binaries', [
        {
          change: `target.binaries [${binaries.join(', ')}] -> [${kept.join(', ')}]`,
          data: { ...withValue(data, ['target', 'binaries'], kept), expect },
        },
      ]);
    }
  }
  const count = valueAt(data, ['runs', 'count']);
  const concurrency = valueAt(data, ['runs', 'concurrency']);
  if (typeof count === 'number') {
    knobs.set(
      'runs.count',
      smallerCounts(count, 1).map((n) => {
        const fewer = withValue(data, ['runs', 'count'], n);
        return {
          change: `runs.count ${count} -> ${n}`,
          data: typeof concurrency === 'number' && concurrency > n ? withValue(fewer, ['runs', 'concurrency'], n) : fewer,
        };
      }),
    );
  }
  if (typeof concurrency === 'number') {
    knobs.set(
      'runs.concurrency',
      smallerCounts(concurrency, 1).map((n) => ({
        change: `runs.concurrency ${concurrency} -> ${n}`,
        data: withValue(data, ['runs', 'concurrency'], n),
      })),
    );
  }
  // Chaos steps and faults before turns and sizes: the runs without them are the quicker ones.
  for (const list of [['chaos'], ['faults', 'agent'], ['faults', 'compaction'], ['faults', 'sandbox']] as const) {
    const rules = valueAt(data, list);
    if (!Array.isArray(rules) || rules.length === 0) continue;
    // Half of them dropped (the later half, then the earlier one), then each one alone.
    const halves = rules.length > 1 ? [rules.slice(0, Math.floor(rules.length / 2)), rules.slice(Math.floor(rules.length / 2))] : [];
    const ones = rules.map((_, i) => rules.filter((__, j) => j !== i));
    knobs.set(
      list.join('.'),
      [...halves, ...ones].map((kept) => ({
        change: `${list.join('.')} ${rules.length} -> ${kept.length} ${list[0] === 'chaos' ? 'steps' : 'rules'}`,
        data: withValue(data, list, kept),
      })),
    );
  }
  const profile = valueAt(data, ['shape', 'turnsProfile']);
  const turns = valueAt(data, ['shape', 'overrides', 'turns']);
  if (Array.isArray(profile)) {
    // A recorded run's turns: the first ones kept, the run then answers once more and ends.
    knobs.set(
      'turns',
      smallerCounts(profile.length, fewestTurns(data)).map((n) => ({
        change: `shape.turnsProfile ${profile.length} -> ${n} turns`,
        data: withValue(data, ['shape', 'turnsProfile'], profile.slice(0, n)),
      })),
    );
  } else if (typeof turns === 'number') {
    knobs.set(
      'turns',
      smallerCounts(turns, 1).map((n) => ({
        change: `shape.overrides.turns ${turns} -> ${n}`,
        data: withValue(data, ['shape', 'overrides', 'turns'], n),
      })),
    );
  }
  for (const path of SIZE_PATHS) {
    const size = valueAt(data, path);
    if (typeof size !== 'number') continue;
    knobs.set(
      path.join('.'),
      smallerSizes(size).map((n) => ({ change: `${path.join('.')} ${size} -> ${n}`, data: withValue(data, path, n) })),
    );
  }
  return knobs;
}

/**
 * The fewest recorded turns that can still break at the turn an expectation names: n turns, then
 * one more request (the run answers once more), so n + 1 >= atTurn - within.
 */
function fewestTurns(data: ScenarioData): number {
  const turns = (Array.isArray(data.expect) ? data.expect : []).map((e) => {
    const reproduces = record(record(e)?.reproduces);
    const atTurn = reproduces?.atTurn;
    return typeof atTurn === 'number' ? atTurn - (typeof reproduces?.within === 'number' ? reproduces.within : 0) - 1 : 1;
  });
  return Math.max(1, ...turns);
}

export interface ShrinkStep {
  step: number;
  change: string;
  verdict: 'kept' | 'rejected' | 'invalid';
  /** Wall time of the candidate's run, ms (absent when it was invalid and not run). */
  wallMs?: number;
  /** Why it was rejected or invalid, briefly. */
  why?: string;
}

export interface ShrinkOptions {
  /** Runs one scenario end to end: runScenario, or a fake in tests. */
  run(scenario: Scenario): Promise<Summary>;
  /** Candidate runs at most (the original's run not counted). */
  maxSteps: number;
  fileName: string;
  onStep?(step: ShrinkStep): void;
  /** Stops between candidates; a candidate's run cut short (a partial summary) decides nothing. */
  signal?: AbortSignal;
}

export interface ShrinkResult {
  /** The failure the original showed. */
  failure: Set<string>;
  /** What every kept step still shows some of: the incidents when there were any, else the failing invariants. */
  wanted: Set<string>;
  original: { data: ScenarioData; wallMs: number };
  smallest: { data: ScenarioData; wallMs: number; failure: Set<string> };
  steps: ShrinkStep[];
  /** The signal stopped it before it was done. */
  interrupted: boolean;
}

/** Checked as longrun reads a scenario file: a candidate the schema refuses is never run. */
export function scenarioOf(data: ScenarioData, fileName: string): Scenario {
  return parseScenario(stringify(data, { lineWidth: 0 }), fileName);
}

async function timed(run: () => Promise<Summary>): Promise<{ summary: Summary; wallMs: number }> {
  const started = performance.now();
  const summary = await run();
  return { summary, wallMs: Math.round(performance.now() - started) };
}

/** Throws when the original does not fail: there is nothing to keep failing. */
export async function shrinkScenario(data: ScenarioData, options: ShrinkOptions): Promise<ShrinkResult> {
  const first = await timed(() => options.run(scenarioOf(data, options.fileName)));
  if (first.summary.partial) throw new InterruptedError('interrupted during the first run, before the failure was known');
  const failure = failureOf(first.summary);
  if (failure.size === 0) throw new Error('the scenario does not fail (no incident, no invariant failing): nothing to shrink');
  // An incident is the failure when there is one: the invariants a short run fails anyway
  // (no ContinueAsNew on a binary without it) must not stand in for the incident gone.
  const incidents = new Set([...failure].filter((f) => f.includes(' reproduces ')));
  const wanted = incidents.size > 0 ? incidents : failure;
  const failingBinaries = new Set([...wanted].map((f) => f.split(' ')[0] as string));
  // What the original's expectations said and held must still hold: a recorded run's
  // `reproduces` at a turn is kept at that turn, not only somewhere.
  const held = new Set((first.summary.expectations ?? []).filter((e) => e.met).map((e) => e.description));
  let smallest = { data, wallMs: first.wallMs, failure };
  const steps: ShrinkStep[] = [];
  const note = (step: ShrinkStep) => {
    steps.push(step);
    options.onStep?.(step);
  };
  // A change rejected once is not tried again from a smaller scenario: a smaller scenario
  // fails no more easily (the monotony shrinking rests on), and every run costs seconds.
  const rejected = new Set<string>();
  let improved = true;
  const stopped = () => options.signal?.aborted === true;
  while (improved && steps.length < options.maxSteps && !stopped()) {
    improved = false;
    // Each knob in turn, read from what was kept so far: at most one change kept per knob a pass.
    for (const knob of candidatesOf(smallest.data, failingBinaries).keys()) {
      for (const candidate of candidatesOf(smallest.data, failingBinaries).get(knob) ?? []) {
        if (steps.length >= options.maxSteps || stopped()) break;
        if (rejected.has(candidate.change)) continue;
        let scenario: Scenario;
        try {
          scenario = scenarioOf(candidate.data, options.fileName);
        } catch (error) {
          rejected.add(candidate.change);
          note({
            step: steps.length + 1,
            change: candidate.change,
            verdict: 'invalid',
            why: (error as Error).message.split('\n')[0] ?? '',
          });
          continue;
        }
        let ran: Awaited<ReturnType<typeof timed>>;
        try {
          ran = await timed(() => options.run(scenario));
        } catch (error) {
          if (error instanceof InterruptedError || stopped()) break;
          // A run longrun could not carry out says nothing of the failure: the larger scenario stays.
          rejected.add(candidate.change);
          note({
            step: steps.length + 1,
            change: candidate.change,
            verdict: 'rejected',
            why: `could not run: ${(error as Error).message.split('\n')[0]}`,
          });
          continue;
        }
        const { summary, wallMs } = ran;
        if (summary.partial) break;
        const shown = new Set([...failureOf(summary)].filter((f) => failure.has(f)));
        const lost = (summary.expectations ?? []).find((e) => held.has(e.description) && !e.met);
        if ([...shown].some((f) => wanted.has(f)) && !lost) {
          note({ step: steps.length + 1, change: candidate.change, verdict: 'kept', wallMs });
          smallest = { data: candidate.data, wallMs, failure: shown };
          improved = true;
          break;
        }
        const why = lost
          ? `no longer met: ${lost.description} (${lost.detail})`
          : shown.size > 0
            ? `only ${[...shown].join('; ')}`
            : 'the failure is gone';
        rejected.add(candidate.change);
        note({ step: steps.length + 1, change: candidate.change, verdict: 'rejected', wallMs, why });
      }
    }
  }
  return { failure, wanted, original: { data, wallMs: first.wallMs }, smallest, steps, interrupted: stopped() };
}
