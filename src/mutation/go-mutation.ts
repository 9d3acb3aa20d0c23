/**
 * `npm run mutation:go [-- --mutate workflow.go:171-177,context.go:396-412] [--scenarios a,b]
 * [--list]`: mutation testing of the Go reference kernel (examples/go-kernel) with the go-*
 * scenarios as its test. Each mutant (go-operators.ts) is applied to a copy of the kernel in a
 * folder of its own, built, and run through the scenarios one after the other (stopping at the
 * first that fails) on servers kept for the whole run, one per dynamic config. Writes
 * reports/mutation-go/results.json and survivors.md. Never inside `npm test`.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Environment, startEnvironment } from '../environment/index.ts';
import { runScenario } from '../runner/run-scenario.ts';
import type { Scenario } from '../scenario/scenario-schema.ts';
import { applyMutant, type GoMutant, mutantsOf } from './go-operators.ts';
import { parseMutateRanges } from './go-ranges.ts';
import { kernelScenario } from './go-scenario.ts';
import { DEFAULT_SCENARIOS, goSuiteScenario } from './go-suite.ts';

/** The decision code: the trigger, the guard, the rebuild and its tail, the ContinueAsNew budget and carry-over, the gate. */
export const DEFAULT_MUTATE =
  'workflow.go:77-88,workflow.go:99,workflow.go:116-117,workflow.go:149,workflow.go:155-167,workflow.go:171-177,workflow.go:190-205,workflow.go:295-305,workflow.go:314-315,workflow.go:320-322,' +
  'context.go:50-55,context.go:227-236,context.go:279-319,context.go:378-392,context.go:396-412';

const OUT = resolve(process.env.GO_MUTATION_OUT ?? 'reports/mutation-go');

interface Result {
  mutant: GoMutant;
  status: 'killed' | 'survived' | 'does not build';
  /** The scenario that failed, and its unmet expectations and failed invariants. */
  by?: string;
  detail?: string[];
  seconds: number;
}

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}

const source = fileURLToPath(new URL('../../examples/go-kernel', import.meta.url));
const ranges = parseMutateRanges(option('--mutate') ?? DEFAULT_MUTATE);
const mutants = ranges.flatMap(({ file, from, to }) => mutantsOf(file, readFileSync(join(source, file), 'utf8'), { from, to }));
if (process.argv.includes('--list')) {
  for (const m of mutants) console.log(`${m.id}  ${JSON.stringify(m.original)} -> ${JSON.stringify(m.replacement)}`);
  console.log(`${mutants.length} mutants`);
  process.exit(0);
}
/** A bounded run: no mutant starts after this many minutes (the one running finishes). */
const maxMinutes = Number(option('--max-minutes') ?? Number.POSITIVE_INFINITY);
const scenarioNames = (option('--scenarios') ?? DEFAULT_SCENARIOS.join(',')).split(',');
const scenarios = scenarioNames.map((name) => goSuiteScenario(name));

// One copy of the kernel, rewritten per mutant: Go's build cache keeps every unchanged package.
const dir = mkdtempSync(join(tmpdir(), 'longrun-go-mutant-'));
const pristine = new Map<string, string>();
for (const name of readdirSync(source).filter((n) => /\.go$|^go\.(mod|sum)$|^mapping\.json$/.test(n) && !n.endsWith('_test.go'))) {
  copyFileSync(join(source, name), join(dir, name));
  pristine.set(name, readFileSync(join(source, name), 'utf8'));
}

const servers = new Map<string, Promise<Environment>>();
function serverFor(scenario: Scenario): Promise<Environment> {
  const key = JSON.stringify(scenario.server.dynamicConfig ?? {});
  let server = servers.get(key);
  if (!server) {
    server = startEnvironment({ dynamicConfig: scenario.server.dynamicConfig ?? {} });
    servers.set(key, server);
  }
  return server;
}

function build(): string | undefined {
  const built = spawnSync('go', ['build', '-o', 'go-kernel', '.'], { cwd: dir, encoding: 'utf8' });
  return built.status === 0 ? undefined : (built.stderr.trim().split('\n')[0] ?? `exit ${built.status}`);
}

async function test(): Promise<Omit<Result, 'mutant' | 'seconds'>> {
  const broken = build();
  if (broken) return { status: 'does not build', detail: [broken] };
  for (const { scenario, file } of scenarios) {
    const started = Date.now();
    const summary = await runScenario(kernelScenario(scenario, dir), { environment: await serverFor(scenario), scenarioFile: file });
    const seconds = Math.round((Date.now() - started) / 1000);
    console.log(`  ${scenario.name} ${summary.passed ? 'passed' : 'FAILED'} ${seconds} s`);
    if (!summary.passed) {
      const unmet = summary.expectations.filter((e) => !e.met).map((e) => e.detail);
      const failed = summary.runs.flatMap((r) =>
        r.invariants.filter((i) => i.status === 'fail').map((i) => `${r.binary} ${i.id}: ${(i.evidence[0] ?? '').slice(0, 200)}`),
      );
      return { status: 'killed', by: scenario.name, detail: [...unmet, ...[...new Set(failed)].slice(0, 3)] };
    }
  }
  return { status: 'survived' };
}

const results: Result[] = [];
const started = Date.now();
mkdirSync(OUT, { recursive: true });
try {
  console.log(`the kernel as written, ${scenarioNames.join(', ')}:`);
  const baseline = await test();
  if (baseline.status !== 'survived')
    throw new Error(`the kernel as written fails its own test: ${baseline.by} ${baseline.detail?.join('; ')}`);
  for (const [i, mutant] of mutants.entries()) {
    if (Date.now() - started > maxMinutes * 60_000) {
      console.log(`--max-minutes ${maxMinutes} passed: ${mutants.length - i} mutants not run`);
      break;
    }
    const mutantStarted = Date.now();
    console.log(`[${i + 1}/${mutants.length}] ${mutant.id}: ${JSON.stringify(mutant.original)} -> ${JSON.stringify(mutant.replacement)}`);
    writeFileSync(join(dir, mutant.file), applyMutant(pristine.get(mutant.file) as string, mutant));
    try {
      results.push({ mutant, ...(await test()), seconds: Math.round((Date.now() - mutantStarted) / 1000) });
    } finally {
      writeFileSync(join(dir, mutant.file), pristine.get(mutant.file) as string);
    }
    const last = results.at(-1) as Result;
    console.log(`  ${last.status}${last.by ? ` by ${last.by}` : ''} (${last.seconds} s)`);
    writeReports(results);
  }
} finally {
  for (const server of servers.values()) await (await server).teardown();
  rmSync(dir, { recursive: true, force: true });
}
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
console.log(`${scoreOf(results)} in ${minutes} min; ${OUT}/survivors.md`);

function scoreOf(all: Result[]): string {
  const valid = all.filter((r) => r.status !== 'does not build');
  const killed = valid.filter((r) => r.status === 'killed').length;
  const percent = valid.length === 0 ? 0 : (100 * killed) / valid.length;
  return `mutation score ${killed}/${valid.length} (${percent.toFixed(1)}%), ${all.length - valid.length} did not build`;
}

function writeReports(all: Result[]): void {
  writeFileSync(join(OUT, 'results.json'), `${JSON.stringify(all, null, 2)}\n`);
  const line = (r: Result) =>
    `- ${r.mutant.id}: \`${r.mutant.original}\` -> \`${r.mutant.replacement}\`${r.by ? ` (${r.by}: ${r.detail?.join('; ')})` : ''}`;
  const survivors = all.filter((r) => r.status === 'survived');
  const killed = all.filter((r) => r.status === 'killed');
  writeFileSync(
    join(OUT, 'survivors.md'),
    [
      scoreOf(all),
      '',
      `survivors (${survivors.length}):`,
      ...survivors.map(line),
      '',
      `killed (${killed.length}):`,
      ...killed.map(line),
      '',
    ].join('\n'),
  );
}
