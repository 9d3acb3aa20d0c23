/**
 * `longrun shrink SCENARIO`: the smallest scenario found that still fails the way the original
 * does (src/runner/shrink-scenario.ts), each candidate run end to end in this process.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { runScenario } from '../../runner/run-scenario.ts';
import { type ScenarioData, type ShrinkResult, type ShrinkStep, shrinkScenario } from '../../runner/shrink-scenario.ts';
import { resolveScenario } from '../../scenario/index.ts';
import { foreignTargetOf } from '../../scenario/target-from-scenario.ts';
import { atomicWriteFile } from '../../shared/atomic-write.ts';
import { terminalText } from '../../shared/visible-text.ts';
import { COMMAND_LINES } from '../command-lines.ts';
import { EXIT } from '../exit-code.ts';
import { defineCommand, valueFlag, wholeNumber } from '../flags.ts';
import { stopOnSignals } from '../stop-on-signals.ts';
import { UsageError } from '../usage-error.ts';

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export function stepLine(step: ShrinkStep): string {
  const why = step.why ? ` (${terminalText(step.why)})` : '';
  const wall = step.wallMs === undefined ? '' : `, ${seconds(step.wallMs)}`;
  return `step ${step.step}: ${step.change}: ${step.verdict}${why}${wall}`;
}

/** Runs per scenario and turns per run, as the before/after line says them. */
export function sizeOf(data: ScenarioData): string {
  const target = data.target as { binaries?: unknown[] } | undefined;
  const runs = (data.runs as { count?: number } | undefined)?.count ?? 1;
  const binaries = Array.isArray(target?.binaries) ? target.binaries.length : 1;
  const shape = data.shape as { overrides?: { turns?: number }; turnsProfile?: unknown[] } | undefined;
  const turns = shape?.turnsProfile ? shape.turnsProfile.length + 1 : shape?.overrides?.turns;
  return `${runs * binaries} run${runs * binaries === 1 ? '' : 's'}, ${turns === undefined ? 'drawn turns' : `${turns} turns`}`;
}

/** The smallest scenario as a file: a header saying what it was shrunk from, how, and what one run of it takes. */
export function shrunkText(result: ShrinkResult, from: string): string {
  const { smallest, original, steps } = result;
  const name = String(smallest.data.name);
  const data = { ...smallest.data, name: name.endsWith('-shrunk') ? name : `${name}-shrunk` };
  const kept = steps.filter((s) => s.verdict === 'kept').map((s) => s.change);
  const header = [
    `Shrunk by \`longrun shrink\` from ${from} (${sizeOf(original.data)}; one run of it: ${seconds(original.wallMs)}).`,
    `Still fails as it did: ${[...smallest.failure].join('; ')}.`,
    `This one: ${sizeOf(smallest.data)}; one run of it: ${seconds(smallest.wallMs)}.`,
    `Kept: ${kept.length > 0 ? kept.join('; ') : 'nothing'} (${steps.length} steps tried${result.interrupted ? ', then stopped' : ''}).`,
  ];
  return `${header.map((line) => `# ${line}`).join('\n')}\n\n${stringify(data, { lineWidth: 0 })}`;
}

/** A foreign worker's paths (its commands' folders, the mapping) rebased to where the file is written. */
function rebased(result: ShrinkResult, file: string, out: string | undefined): ShrinkResult {
  const target = result.smallest.data.target as { external?: unknown } | undefined;
  if (!target?.external) return result;
  const { external } = foreignTargetOf(file, out ? dirname(resolve(out)) : process.cwd());
  return { ...result, smallest: { ...result.smallest, data: { ...result.smallest.data, target: { external } } } };
}

export const shrinkCommand = defineCommand({
  ...COMMAND_LINES.shrink,
  flags: {
    out: valueFlag({ value: 'F', help: 'write the smallest scenario to F (default: print it)' }),
    'max-steps': valueFlag({
      value: 'N',
      help: 'run at most N candidates',
      default: 30,
      parse: wholeNumber(1),
      want: 'a whole number from 1',
    }),
  },
  positionals: { min: 1, max: 1, names: 'the scenario (a built-in name or a file)' },
  notes: `The failure is what the original's first run shows: each binary's incidents and failing invariants.
A candidate halves one knob (then takes a quarter, an eighth, or one off): the binaries that do not fail,
runs.count, runs.concurrency, the turns (shape.overrides.turns, or shape.turnsProfile's length),
the item sizes (bytesPerTurn, screenshotBytes, scale...), the fault rules and the chaos steps. It is
kept when its run shows one of the same incidents (one of the same failing invariants when the
original showed no incident); the server's limits stay as they are, so smaller items that no longer
break them are rejected. Each step prints what changed, kept or rejected, and its run's wall time.`,
  async run({ values, positionals }) {
    const { file } = resolveScenario(positionals[0] as string);
    const data = parse(readFileSync(file, 'utf8')) as ScenarioData;
    console.error(`longrun shrink: ${terminalText(file)}: running it once to see how it fails`);
    const stop = stopOnSignals((why) =>
      console.error(`\nlongrun: ${why}: stopping; the smallest scenario found so far is written (again to quit at once)`),
    );
    let result: ShrinkResult;
    try {
      result = await shrinkScenario(data, {
        run: (scenario) => runScenario(scenario, { scenarioFile: file, signal: stop.signal }),
        signal: stop.signal,
        maxSteps: values['max-steps'],
        fileName: file,
        onStep: (step) => console.error(stepLine(step)),
      });
    } catch (error) {
      stop.release();
      if ((error as Error).message.startsWith('the scenario does not fail')) throw new UsageError((error as Error).message);
      throw error;
    }
    const text = shrunkText(rebased(result, file, values.out), relative(process.cwd(), file) || file);
    const said = `before: ${sizeOf(result.original.data)}, ${seconds(result.original.wallMs)}; after: ${sizeOf(result.smallest.data)}, ${seconds(result.smallest.wallMs)}`;
    const out = values.out;
    await stop.holdWhile(async () => {
      if (out) await atomicWriteFile(out, text);
      else process.stdout.write(text);
    }, 'writing the smallest scenario first');
    stop.release();
    console.error(out ? `wrote ${out} (${said})` : `(${said})`);
    return result.interrupted ? EXIT.interrupted : EXIT.passed;
  },
});
