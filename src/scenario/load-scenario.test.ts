import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { type FaultProfile, type RunShapeInput, resolveShape } from '../../mocks/index.ts';
import { BINARY_IDS, type BinaryId, type BinaryName } from '../kernel/index.ts';
import { COMPARE_KEYS } from './compare-schema.ts';
import { loadScenarioFile, parseScenario } from './load-scenario.ts';
import { ScenarioError } from './scenario-error.ts';
import type { ChaosStep, Expectation, Scenario } from './scenario-schema.ts';

const FILE = 'scenarios/foo.yaml';

/** A valid scenario with `extra` lines appended at the top level. */
function scenario(extra = ''): string {
  return ['name: foo', 'seed: 7', 'expect:', '  - on: v1', '    hold: all', extra].join('\n');
}

function errorOf(text: string): ScenarioError {
  try {
    parseScenario(text, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioError);
    return error as ScenarioError;
  }
  throw new Error('expected a ScenarioError');
}

describe('parseScenario', () => {
  it('fills the defaults of a minimal scenario', () => {
    const parsed = parseScenario(scenario(), FILE);
    expect(parsed).toMatchObject({
      name: 'foo',
      seed: 7,
      description: '',
      target: { binaries: ['v1'] },
      runs: { count: 1, concurrency: 1, maxTurns: 200, timeout: '2m' },
      limits: {},
      chaos: [],
      expect: [{ on: 'v1', hold: 'all' }],
    });
  });

  it("types shape and faults as the mocks' inputs, kernel binaries as BinaryIds and expectations' binaries as BinaryNames (checked by tsc)", () => {
    expectTypeOf<Scenario['shape']>().toEqualTypeOf<RunShapeInput>();
    expectTypeOf<Scenario['faults']>().toEqualTypeOf<FaultProfile>();
    expectTypeOf<Extract<Scenario['target'], { binaries: unknown }>['binaries']>().toEqualTypeOf<BinaryId[]>();
    // An expectation may name a foreign binary of target.external; the scenario checks it against the target.
    expectTypeOf<Expectation['on']>().toEqualTypeOf<BinaryName>();
    expectTypeOf<ChaosStep['binary']>().toEqualTypeOf<BinaryName | undefined>();
    expectTypeOf<ChaosStep['to']>().toEqualTypeOf<BinaryName | undefined>();
  });

  it('takes a shape section left empty as its defaults', () => {
    const parsed = parseScenario(scenario('shape:\n  overrides:\n  # turns: 3'), FILE);
    expect(resolveShape(parsed.shape)).toEqual(resolveShape({}));
  });

  it.each([
    ['a wrong type', scenario('runs:\n  concurrency: -2'), `${FILE}:7:16: runs.concurrency: expected a positive integer, got -2`],
    ['a string for a number', scenario('runs:\n  count: many'), `${FILE}:7:10: runs.count: expected a positive integer, got "many"`],
    ['an unknown key', scenario('runs:\n  concurency: 2'), `${FILE}:7:3: runs: unknown key concurency; did you mean concurrency?`],
    ['an unknown top-level key', scenario('sead: 3'), `${FILE}:6:1: unknown key sead; did you mean seed?`],
    [
      'a missing seed',
      'name: foo\nexpect:\n  - {on: v1, hold: all}\n',
      `${FILE}:1:1: seed: missing (expected an integer from 0 to 4294967295)`,
    ],
    [
      'a seed past 32 bits',
      scenario().replace('seed: 7', 'seed: 4294967296'),
      `${FILE}:2:7: seed: expected an integer from 0 to 4294967295, got 4294967296`,
    ],
    [
      'a bad shape field deep inside',
      scenario('shape:\n  overrides:\n    turns: lots'),
      `${FILE}:8:12: shape.overrides.turns: expected number, got "lots"`,
    ],
    ['an unknown shape field', scenario('shape:\n  overrides:\n    turn: 3'), `${FILE}:8:5: shape.overrides: unknown key turn`],
    ['a shape section that is not a mapping', scenario('shape:\n  turns: 5'), `${FILE}:7:10: shape.turns: expected object, got 5`],
    [
      'a bad fault kind',
      scenario('faults:\n  agent:\n    - fault: {kind: http-999}'),
      `${FILE}:8:21: faults.agent[0].fault.kind: Invalid discriminator value. Expected 'http-429' | 'http-500' | 'http-503' | 'overloaded' | 'context-length-exceeded' | 'latency' | 'timeout' | 'reset' | 'malformed-json' | 'truncated-stream' | 'oversized-card' | 'card-missing-section' | 'card-untidy', got "http-999"`,
    ],
    [
      'a card fault on the agent',
      scenario('faults:\n  agent:\n    - fault: {kind: oversized-card}'),
      `${FILE}:8:21: faults.agent[0].fault.kind: oversized-card applies to the compaction model only, got "oversized-card"`,
    ],
    [
      'a bad binary',
      scenario('target:\n  binaries: [v1, v7]'),
      `${FILE}:7:18: target.binaries[1]: expected one of ${BINARY_IDS.join(', ')}, got "v7"; did you mean v0?`,
    ],
    ['an empty target', scenario('target: {}'), `${FILE}:6:9: target: needs one of binaries, external`],
    [
      'a bad duration',
      scenario('runs:\n  timeout: 10 minutes'),
      `${FILE}:7:12: runs.timeout: expected a duration like 500ms, 90s, 10m or 1h, got "10 minutes"`,
    ],
    [
      'a duration of the wrong type',
      scenario('runs:\n  timeout: [1]'),
      `${FILE}:7:12: runs.timeout: expected a duration like 500ms, 90s, 10m or 1h, or a number of milliseconds, got a list`,
    ],
    ['a timeout of nothing', scenario('runs:\n  timeout: 0s'), `${FILE}:7:12: runs.timeout: expected a duration above zero, got "0s"`],
    ['a duration of nothing', scenario('runs:\n  duration: 0m'), `${FILE}:7:13: runs.duration: expected a duration above zero, got "0m"`],
    [
      'a duration rounding to nothing',
      scenario('runs:\n  duration: 0.2ms'),
      `${FILE}:7:13: runs.duration: expected a duration above zero, got "0.2ms"`,
    ],
    [
      'a bad name',
      scenario().replace('name: foo', 'name: Foo_Bar'),
      `${FILE}:1:7: name: expected lower-case letters, digits and dashes, got "Foo_Bar"`,
    ],
    ['no expectations', 'name: foo\nseed: 1\nexpect: []\n', `${FILE}:3:9: expect: expected a non-empty list, got an empty list`],
    [
      'a dynamic config value of the wrong type',
      scenario('server:\n  dynamicConfig:\n    limit.blobSize.error: {a: 1}'),
      `${FILE}:8:27: server.dynamicConfig["limit.blobSize.error"]: expected a string, a number or a boolean, got a mapping`,
    ],
  ])('points at %s', (_, text, message) => {
    expect(errorOf(text).message).toBe(message);
  });

  it('resolves an expectation to the branch its keys name', () => {
    const text = 'name: foo\nseed: 1\nexpect:\n  - on: v0\n    violates: [payload.celing]\n';
    expect(errorOf(text).message).toBe(
      `${FILE}:5:16: expect[0].violates[0]: expected one of payload.ceiling, payload.references-resolve, wft.no-retry-loop, history.no-termination, history.continue-as-new, can.clean-boundary, can.carry-over, compaction.trigger, compaction.failure-continues, compaction.card, compaction.digest-coverage, elision.minimal, rebuild.contract, journal.chain, run.liveness, versioning.pinned-build, replay.cross-version, requests.accepted, got "payload.celing"; did you mean payload.ceiling?`,
    );
    expect(errorOf('name: foo\nseed: 1\nexpect:\n  - on: v0\n').message).toBe(
      `${FILE}:4:5: expect[0]: needs one of hold, reproduces, violates, ends, replay`,
    );
    expect(errorOf('name: foo\nseed: 1\nexpect:\n  - {on: v0, hold: everything}\n').message).toMatch(
      /^scenarios\/foo\.yaml:4:20: expect\[0\]\.hold: expected "all" or a non-empty list of payload\.ceiling, .*, got "everything"$/,
    );
  });

  it('points at a replay block that names an unknown binary, none, or one both ways', () => {
    const replay = (block: string) => `name: foo\nseed: 1\nexpect:\n  - on: v0\n    replay: ${block}\n`;
    expect(errorOf(replay('{ on: [v0, v11], failsOn: [ungated] }')).message).toMatch(
      /^scenarios\/foo\.yaml:5:24: expect\[0\]\.replay\.on\[1\]: expected one of v0, v1, v2, ungated, .*; did you mean v1\?/,
    );
    expect(errorOf(replay('{}')).message).toBe(`${FILE}:5:13: expect[0].replay: names no binary: give on, failsOn or both`);
    expect(errorOf(replay('{ on: [v1], failsOn: [v1] }')).message).toBe(
      `${FILE}:5:34: expect[0].replay.failsOn: v1 is also in on: a history cannot both replay and fail there`,
    );
  });

  it('reports every problem of a file at once, a line each, nearest the top first', () => {
    const text = 'name: foo\nexpect: []\nseed: -1\nruns: {count: 0, concurency: 2}\n';
    const error = errorOf(text);
    expect(error.lines).toEqual([
      `${FILE}:2:9: expect: expected a non-empty list, got an empty list`,
      `${FILE}:3:7: seed: expected an integer from 0 to 4294967295, got -1`,
      `${FILE}:4:15: runs.count: expected a positive integer, got 0`,
      `${FILE}:4:18: runs: unknown key concurency; did you mean concurrency?`,
    ]);
    expect(error.message).toBe(error.lines.join('\n'));
    expect(error.locations.map((l) => `${l.line}:${l.column} ${l.field}`)).toEqual([
      '2:9 expect',
      '3:7 seed',
      '4:15 runs.count',
      '4:18 runs',
    ]);
    expect(error.location).toEqual({ file: FILE, line: 2, column: 9, field: 'expect' });
  });

  it.each([
    ['an unclosed flow sequence', 'name: foo\nseed: [1\n', /^scenarios\/foo\.yaml:3:1: [^\n]*\]/],
    ['a duplicate key', 'name: foo\nname: bar\nseed: 1\n', /^scenarios\/foo\.yaml:2:1: Map keys must be unique$/],
    ['bad indentation', 'name: foo\n  seed: 1\n', /^scenarios\/foo\.yaml:1:7: Nested mappings are not allowed in compact mappings$/],
    ['two documents', 'name: foo\n---\nname: bar\n', /^scenarios\/foo\.yaml:2:1: /],
    [
      'an alias bomb',
      `a: &a [x, x, x, x, x, x, x, x, x, x]\n${Array.from({ length: 6 }, (_, i) => `${'b'.repeat(i + 1)}: &${'b'.repeat(i + 1)} [${(i === 0 ? '*a, ' : `*${'b'.repeat(i)}, `).repeat(10).slice(0, -2)}]`).join('\n')}\n`,
      /^scenarios\/foo\.yaml:1:1: not a readable YAML document: /,
    ],
  ])('reports YAML syntax on one line: %s', (_, text, pattern) => {
    const message = errorOf(text).message;
    expect(message).toMatch(pattern);
    expect(message).not.toContain('\n');
  });

  it('reports nesting too deep for the parser on one line', () => {
    const depth = 20_000;
    const message = errorOf(`name: foo\nseed: ${'['.repeat(depth)}${']'.repeat(depth)}\n`).message;
    expect(message).toMatch(/^scenarios\/foo\.yaml:2:\d+: /);
    expect(message).not.toContain('\n');
  });

  it('says what the whole file should be when it is not a mapping', () => {
    expect(errorOf('- just\n- a list\n').message).toBe(`${FILE}:1:1: expected a mapping, got a list`);
    expect(errorOf('').message).toBe(`${FILE}:1:1: expected a mapping, got an empty value`);
  });

  it('gives the location fields on the error', () => {
    expect(errorOf(scenario('runs:\n  concurrency: 0')).location).toEqual({ file: FILE, line: 7, column: 16, field: 'runs.concurrency' });
  });

  it('keeps a message on one line whatever the file holds', () => {
    const message = errorOf('name: "a\\nb\\u2028c"\nseed: 1\nexpect: [{on: v1, hold: all}]\n').message;
    expect(message).toBe(`${FILE}:1:7: name: expected lower-case letters, digits and dashes, got "a\\nb\\u2028c"`);
  });
});

describe('loadScenarioFile', () => {
  it('names the file it read in every error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'longrun-scenario-'));
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, scenario('runs:\n  count: 0'));
    expect(() => loadScenarioFile(file)).toThrow(`${file}:7:10: runs.count: expected a positive integer, got 0`);
    expect(() => loadScenarioFile(join(dir, 'absent.yaml'))).toThrow(`${join(dir, 'absent.yaml')}: no such file`);
  });
});

describe("a scenario's compare block", () => {
  it('is absent unless written, and an empty one sets no limit', () => {
    expect(parseScenario(scenario(), FILE).compare).toBeUndefined();
    expect(parseScenario(scenario('compare: {}'), FILE).compare).toEqual({ maxRegression: {} });
  });

  it("takes the --max-regression forms: a percentage, an amount in the figure's unit, off", () => {
    const text = scenario(
      [
        'compare:',
        '  maxRegression:',
        "    p99: '25%'",
        '    violations: 0',
        '    worker-rss-growth: 100',
        '    tokens-per-turn: off',
      ].join('\n'),
    );
    expect(parseScenario(text, FILE).compare).toEqual({
      maxRegression: { p99: '25%', violations: 0, 'worker-rss-growth': 100, 'tokens-per-turn': 'off' },
    });
  });

  it('knows every figure key of longrun compare', () => {
    const lines = COMPARE_KEYS.map((key) => `    ${key}: off`);
    const parsed = parseScenario(scenario(['compare:', '  maxRegression:', ...lines].join('\n')), FILE);
    expect(Object.keys(parsed.compare?.maxRegression ?? {})).toEqual(COMPARE_KEYS);
  });

  it.each([
    [
      'an unknown figure',
      ['compare:', '  maxRegression:', '    p999: 20%'],
      `${FILE}:8:5: compare.maxRegression: unknown key p999; did you mean p99?`,
    ],
    [
      'a limit in words',
      ['compare:', '  maxRegression:', '    p99: fast'],
      `${FILE}:8:10: compare.maxRegression.p99: expected a percentage of the baseline (10%), an amount in the figure's unit, or off, got "fast"`,
    ],
    [
      'a negative amount',
      ['compare:', '  maxRegression:', '    violations: -1'],
      `${FILE}:8:17: compare.maxRegression.violations: expected a percentage of the baseline (10%), an amount in the figure's unit, or off, got -1`,
    ],
    [
      'a negative percentage',
      ['compare:', '  maxRegression:', '    p99: -5%'],
      `${FILE}:8:10: compare.maxRegression.p99: expected a percentage of the baseline (10%), an amount in the figure's unit, or off, got "-5%"`,
    ],
    [
      'a key beside maxRegression',
      ['compare:', '  maxRegresion:', '    p99: 20%'],
      `${FILE}:7:3: compare: unknown key maxRegresion; did you mean maxRegression?`,
    ],
  ])('points at %s with its file, line and field', (_, lines, message) => {
    expect(errorOf(scenario(lines.join('\n'))).message).toBe(message);
  });
});
