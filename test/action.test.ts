/**
 * action.yml, the composite GitHub Action, checked against the rules of GitHub's metadata syntax
 * for actions (docs.github.com: "Metadata syntax for GitHub Actions"). SchemaStore's
 * github-action.json is not in node_modules nor in any npm package that ships it as a JSON
 * Schema, and there is no network in the tests: the rules it encodes are written out here
 * instead. Then its scripts run under bash with a stand-in longrun, so that what they pass to
 * the next steps is tried too.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { COMMANDS } from '../src/cli/commands.ts';
import { packagePath } from '../src/shared/package-paths.ts';

interface Step {
  id?: string;
  name?: string;
  if?: string;
  run?: string;
  shell?: string;
  uses?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  'working-directory'?: string;
  'continue-on-error'?: unknown;
}

interface Action {
  name: string;
  description: string;
  author?: string;
  branding?: { icon?: string; color?: string };
  inputs: Record<string, { description: string; required?: boolean; default?: string; deprecationMessage?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: Step[] };
}

const ACTION_TEXT = readFileSync(packagePath('action.yml'), 'utf8');
const action = parse(ACTION_TEXT) as Action;
const ID = /^[_a-zA-Z][a-zA-Z0-9_-]*$/;
const SHELLS = ['bash', 'pwsh', 'python', 'sh', 'cmd', 'powershell'];
const STEP_KEYS = ['id', 'name', 'if', 'run', 'shell', 'uses', 'with', 'env', 'working-directory', 'continue-on-error'];

/** Every `${{ ... }}` expression in a value, with the step it sits in. */
function expressions(value: unknown): string[] {
  if (typeof value === 'string') return [...value.matchAll(/\$\{\{(.*?)\}\}/g)].map((m) => (m[1] ?? '').trim());
  if (Array.isArray(value)) return value.flatMap(expressions);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(expressions);
  return [];
}

describe('action.yml', () => {
  it('has the top-level keys of an action and nothing else', () => {
    expect(
      Object.keys(action).every((key) => ['name', 'author', 'description', 'inputs', 'outputs', 'runs', 'branding'].includes(key)),
    ).toBe(true);
    expect(typeof action.name).toBe('string');
    expect(typeof action.description).toBe('string');
    expect(action.description.length).toBeLessThanOrEqual(125); // the Marketplace's limit
    expect(['white', 'yellow', 'blue', 'green', 'orange', 'red', 'purple', 'gray-dark']).toContain(action.branding?.color);
  });

  it('declares each input and output as the metadata syntax says', () => {
    for (const [id, input] of Object.entries(action.inputs)) {
      expect(id, id).toMatch(ID);
      expect(
        Object.keys(input).every((key) => ['description', 'required', 'default', 'deprecationMessage'].includes(key)),
        id,
      ).toBe(true);
      expect(typeof input.description, id).toBe('string');
      if (input.required !== undefined) expect(typeof input.required, id).toBe('boolean');
      if (input.default !== undefined) expect(typeof input.default, id).toBe('string');
    }
    for (const [id, output] of Object.entries(action.outputs)) {
      expect(id, id).toMatch(ID);
      expect(Object.keys(output).sort(), id).toEqual(['description', 'value']); // a composite action's output needs its value
    }
  });

  it('is a composite action whose steps are each a run with its shell or a uses', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.runs).sort()).toEqual(['steps', 'using']);
    const ids = new Set<string>();
    for (const step of action.runs.steps) {
      const label = step.name ?? step.id ?? JSON.stringify(step);
      expect(
        Object.keys(step).every((key) => STEP_KEYS.includes(key)),
        label,
      ).toBe(true);
      expect((step.run === undefined) !== (step.uses === undefined), `${label}: run or uses, one of them`).toBe(true);
      if (step.run !== undefined) expect(SHELLS, `${label}: a run step needs its shell`).toContain(step.shell);
      if (step.uses !== undefined) {
        expect(step.shell, label).toBeUndefined();
        expect(step['working-directory'], label).toBeUndefined();
        expect(step.uses, label).toMatch(/^([\w.-]+\/[\w./-]+@[\w.-]+|\.\/.*|docker:\/\/.+)$/);
      }
      if (step.id !== undefined) {
        expect(step.id, label).toMatch(ID);
        expect(ids.has(step.id), `${label}: id ${step.id} given twice`).toBe(false);
        ids.add(step.id);
      }
    }
  });

  it('refers only to declared inputs and to outputs of steps before the one that reads them', () => {
    const inputs = Object.keys(action.inputs);
    const seen: string[] = [];
    const check = (expression: string, where: string, before: string[]) => {
      for (const [, name] of expression.matchAll(/\binputs\.([\w-]+)/g)) expect(inputs, `${where}: inputs.${name}`).toContain(name);
      for (const [, id] of expression.matchAll(/\bsteps\.([\w-]+)\.outputs/g)) expect(before, `${where}: steps.${id}`).toContain(id);
    };
    for (const step of action.runs.steps) {
      for (const expression of expressions(step)) check(expression, step.name ?? '', seen);
      if (step.id !== undefined) seen.push(step.id);
    }
    for (const [id, output] of Object.entries(action.outputs))
      for (const expression of expressions(output.value)) check(expression, `outputs.${id}`, seen);
    // Inputs reach a script through env, never spliced into its text (script injection).
    for (const step of action.runs.steps) expect(expressions(step.run), step.name).toEqual([]);
    // Every input is used.
    for (const name of inputs) expect(ACTION_TEXT, name).toContain(`inputs.${name} `);
  });

  it('passes longrun only the flags its commands declare', async () => {
    const scripts = action.runs.steps.map((step) => step.run ?? '').join('\n');
    const used = new Set([...scripts.matchAll(/[\s(](--[a-z][a-z-]*)/g)].map((m) => (m[1] ?? '').slice(2)));
    const declared = new Set<string>();
    for (const name of ['run', 'soak', 'compare']) {
      const command = (await COMMANDS[name]?.load()) as { flags?: Record<string, unknown> };
      for (const flag of Object.keys(command.flags ?? {})) declared.add(flag);
    }
    expect([...used].sort()).toEqual(['duration', 'max-regression', 'report-dir']);
    for (const flag of used) expect(declared, flag).toContain(flag);
  }, 60_000);
});

describe("action.yml's scripts, under bash with a stand-in longrun", () => {
  const step = (id: string) => action.runs.steps.find((s) => s.id === id) as Step;

  /** A longrun that prints its arguments and a report line as `run` does, then exits with `exit`. */
  function fakeLongrun(dir: string, exit: number): string {
    const file = join(dir, 'longrun.mjs');
    writeFileSync(
      file,
      `import { mkdirSync, writeFileSync } from 'node:fs';
const args = process.argv.slice(2);
writeFileSync(${JSON.stringify(join(dir, 'args.json'))}, JSON.stringify(args));
if (args[0] !== 'compare') {
  const folder = args[args.indexOf('--report-dir') + 1] + '/2026-12-04T02-00-00Z-nightly-soak';
  mkdirSync(folder, { recursive: true });
  console.log('  met   on v1: every invariant holds');
  console.log('report: ' + folder + '/report.html (summary.json, junit.xml beside it)');
} else console.log('regressed: p99');
process.exit(${exit});
`,
    );
    return file;
  }

  function runStep(id: string, env: Record<string, string>, cwd: string, scratch: string = cwd) {
    const output = join(scratch, 'github-output');
    writeFileSync(output, '');
    const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step(id).run ?? ''], {
      cwd,
      env: { PATH: process.env.PATH ?? '', GITHUB_OUTPUT: output, RUNNER_TEMP: scratch, ...env },
      encoding: 'utf8',
    });
    const outputs = Object.fromEntries(
      readFileSync(output, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    return { status: result.status, stdout: result.stdout, stderr: result.stderr, outputs };
  }

  it('soaks, records the report folder and the exit code, and lets the steps after it run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'longrun-action-'));
    const longrun = fakeLongrun(dir, 1);
    const result = runStep('run', { LONGRUN: longrun, SCENARIO: '', SOAK: 'nightly-soak', DURATION: '10m', REPORT_DIR: 'reports' }, dir);
    expect(result.status).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'args.json'), 'utf8'))).toEqual([
      'soak',
      'nightly-soak',
      '--duration',
      '10m',
      '--report-dir',
      'reports',
    ]);
    expect(result.outputs).toEqual({ report: join(dir, 'reports/2026-12-04T02-00-00Z-nightly-soak'), 'exit-code': '1' });
    expect(result.stdout).toContain('met   on v1');
  });

  it('runs a scenario, and refuses neither or both', () => {
    const dir = mkdtempSync(join(tmpdir(), 'longrun-action-'));
    const longrun = fakeLongrun(dir, 0);
    const base = { LONGRUN: longrun, DURATION: '10m', REPORT_DIR: 'out' };
    expect(runStep('run', { ...base, SCENARIO: 'smoke', SOAK: '' }, dir).outputs['exit-code']).toBe('0');
    expect(JSON.parse(readFileSync(join(dir, 'args.json'), 'utf8'))).toEqual(['run', 'smoke', '--report-dir', 'out']);
    expect(runStep('run', { ...base, SCENARIO: '', SOAK: '' }, dir)).toMatchObject({
      status: 2,
      stdout: expect.stringContaining('give scenario or soak'),
    });
    expect(runStep('run', { ...base, SCENARIO: 'smoke', SOAK: 'smoke' }, dir).status).toBe(2);
  });

  it('compares against a baseline, records compare exit 3, and skips a baseline that is not there', () => {
    const dir = mkdtempSync(join(tmpdir(), 'longrun-action-'));
    const longrun = fakeLongrun(dir, 3);
    const report = join(dir, 'tonight');
    mkdirSync(report);
    mkdirSync(join(dir, 'baseline'));
    const env = { LONGRUN: longrun, BASELINE: 'baseline', MAX_REGRESSION: 'p99=25%', REPORT: report };
    const compared = runStep('compare', env, dir);
    expect(compared).toMatchObject({ status: 0, outputs: { 'exit-code': '3' } });
    expect(JSON.parse(readFileSync(join(dir, 'args.json'), 'utf8'))).toEqual([
      'compare',
      'baseline',
      report,
      '--max-regression',
      'p99=25%',
    ]);
    expect(readFileSync(join(report, 'compare.txt'), 'utf8')).toContain('regressed: p99');
    expect(runStep('compare', { ...env, BASELINE: 'no-such-night' }, dir)).toMatchObject({ status: 0, outputs: {} });
  });

  it("keys the cache of longrun's builds by the Go sources they are built from", () => {
    const key = runStep('builds', { RUNNER_OS: 'Linux' }, packagePath('.'), mkdtempSync(join(tmpdir(), 'longrun-action-')));
    expect(key.outputs.key).toMatch(/^longrun-builds-Linux-[0-9a-f]{16}$/);
  });

  it("fails the job with the run's exit code, else with compare's", () => {
    const dir = mkdtempSync(join(tmpdir(), 'longrun-action-'));
    expect(runStep('verdict', { RUN_STATUS: '0', COMPARE_STATUS: '' }, dir).status).toBe(0);
    expect(runStep('verdict', { RUN_STATUS: '1', COMPARE_STATUS: '0' }, dir).status).toBe(1);
    expect(runStep('verdict', { RUN_STATUS: '0', COMPARE_STATUS: '3' }, dir).status).toBe(3);
    expect(runStep('verdict', { RUN_STATUS: '', COMPARE_STATUS: '' }, dir).status).toBe(2);
  });
});
