/**
 * The loader against thousands of broken files: random YAML-ish text, the built-in scenarios
 * mutated line by line and byte by byte, and valid YAML with wrong values at random places.
 * Each either loads or throws a ScenarioError whose every line starts with the file name, a
 * line within the file and a column; nothing else ever escapes.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { parseScenario } from './load-scenario.ts';
import { scenarioFiles } from './registry.ts';
import { ScenarioError } from './scenario-error.ts';
import { scenarioSchema } from './scenario-schema.ts';

const FILE = 'scenarios/fuzz.yaml';
const BUILT_INS = scenarioFiles().map((file) => readFileSync(file, 'utf8'));
const LOCATED = /^scenarios\/fuzz\.yaml:(\d+):(\d+): \S/;

/** Loads or fails the one allowed way; returns which, so that the fuzz can show it reaches both. */
function checkLoad(text: string): 'loaded' | 'rejected' {
  try {
    const scenario = parseScenario(text, FILE);
    expect(scenarioSchema.safeParse(scenario).success).toBe(true);
    return 'loaded';
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw new Error(`not a ScenarioError: ${String(error)}`);
    expect(error.lines.length).toBeGreaterThan(0);
    expect(error.message).toBe(error.lines.join('\n'));
    for (const line of error.lines) {
      const match = LOCATED.exec(line);
      if (!match) throw new Error(`not located: ${line}`);
      expect(line).not.toMatch(/[\n\r\u2028\u2029]/);
      expect(Number(match[1])).toBeLessThanOrEqual(text.split(/\r\n|\r|\n/).length + 1);
    }
    return 'rejected';
  }
}

const JUNK_VALUES = [
  '[1, 2]',
  '{a: 1}',
  '"text"',
  '-1',
  '0',
  '1.5',
  '1e308',
  '-1e308',
  '99999999999999999999',
  '.inf',
  '.nan',
  '~',
  'null',
  'true',
  '""',
  '"é🙂\u0000"',
  '!!binary aGVsbG8=',
  '!custom x',
  '&anchor 1',
  '*nowhere',
  '|\n  block',
  '0x1F',
  '1_000',
  '2026-11-08',
  `"${'x'.repeat(5000)}"`,
  '[[[[[[[[]]]]]]]]',
];

const yamlChars = fc.constantFrom(
  ...' \n\n\n  --::-[]{},#&*!|>\'"%@`?~.01239aeknsvxyz_\t\r\u00e9\u{1F642}\u2028\u0000\ufeff'.split(''),
  'name: ',
  'seed: ',
  'expect:\n  - on: v1\n    hold: all\n',
  'runs:\n  ',
  'shape:\n  overrides:\n    ',
);

const randomText = fc.array(yamlChars, { maxLength: 120 }).map((parts) => parts.join(''));

/** One edit of a file's lines; indexes are taken modulo the line count. */
type Mutation =
  | { kind: 'delete' | 'duplicate' | 'truncate'; line: number }
  | { kind: 'swap-lines' | 'swap-values'; line: number; other: number }
  | { kind: 'value'; line: number; value: string }
  | { kind: 'deep-flow' | 'deep-block'; line: number; depth: number }
  | { kind: 'junk'; line: number; offset: number; junk: string }
  | { kind: 'indent'; line: number; spaces: number }
  | { kind: 'unknown-key'; line: number; key: string };

const line = fc.nat(200);
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constantFrom('delete', 'duplicate', 'truncate'), line }),
  fc.record({ kind: fc.constantFrom('swap-lines', 'swap-values'), line, other: line }),
  fc.record({
    kind: fc.constant('value'),
    line,
    value: fc.oneof(fc.constantFrom(...JUNK_VALUES), fc.string({ unit: 'binary', maxLength: 20 })),
  }),
  fc.record({ kind: fc.constantFrom('deep-flow', 'deep-block'), line, depth: fc.integer({ min: 1, max: 1000 }) }),
  fc.record({ kind: fc.constant('junk'), line, offset: fc.nat(80), junk: fc.string({ unit: 'binary', minLength: 1, maxLength: 16 }) }),
  fc.record({ kind: fc.constant('indent'), line, spaces: fc.integer({ min: 1, max: 5 }) }),
  fc.record({ kind: fc.constant('unknown-key'), line, key: fc.constantFrom('sead', 'runz', 'expect2', 'é', '"a b"', '? [x]', '<<') }),
);

const lineValue = (text: string | undefined) => /:\s(.*)$/.exec(text ?? '')?.[1];
const withValue = (text: string, value: string) => text.replace(/^(\s*(?:- )?[^:#]*:)\s.*$/, `$1 ${value}`);

function mutate(lines: readonly string[], m: Mutation): string[] {
  const i = m.line % Math.max(1, lines.length);
  const current = lines[i] ?? '';
  const replaced = (text: string) => lines.map((l, k) => (k === i ? text : l));
  switch (m.kind) {
    case 'delete':
      return lines.filter((_, k) => k !== i);
    case 'duplicate':
      return [...lines.slice(0, i), current, ...lines.slice(i)];
    case 'truncate':
      return lines.slice(0, i);
    case 'swap-lines': {
      const j = m.other % Math.max(1, lines.length);
      return lines.map((l, k) => (k === i ? (lines[j] ?? '') : k === j ? current : l));
    }
    case 'swap-values': {
      const j = m.other % Math.max(1, lines.length);
      const [a, b] = [lineValue(current), lineValue(lines[j])];
      if (a === undefined || b === undefined) return [...lines];
      return lines.map((l, k) => (k === i ? withValue(current, b) : k === j ? withValue(l, a) : l));
    }
    case 'value':
      return replaced(withValue(current, m.value));
    case 'deep-flow':
      return replaced(withValue(current, `${'['.repeat(m.depth)}${']'.repeat(m.depth)}`));
    case 'deep-block':
      return [...lines, 'shape:', ...Array.from({ length: Math.min(m.depth, 400) }, (_, d) => `${'  '.repeat(d + 1)}k${d}:`)];
    case 'junk': {
      const cut = m.offset % (current.length + 1);
      return replaced(`${current.slice(0, cut)}${m.junk}${current.slice(cut)}`);
    }
    case 'indent':
      return replaced(`${' '.repeat(m.spaces)}${current}`);
    case 'unknown-key':
      return [...lines.slice(0, i), `${m.key}: 1`, ...lines.slice(i)];
  }
}

const mutatedBuiltIn = fc
  .tuple(fc.constantFrom(...BUILT_INS), fc.array(mutation, { minLength: 1, maxLength: 3 }))
  .map(([text, mutations]) => mutations.reduce<string[]>(mutate, text.split('\n')).join('\n'));

/** Valid YAML, a built-in's data with one field (at any depth) replaced by an arbitrary value. */
const replacedField = fc
  .tuple(fc.constantFrom(...BUILT_INS), fc.nat(), fc.jsonValue({ maxDepth: 3 }), fc.constantFrom('replace', 'delete', 'add'))
  .map(([text, choice, value, how]) => {
    const data = parse(text) as Record<string, unknown>;
    const places = fieldPlaces(data);
    const [parent, key] = places[choice % places.length] as [Record<string, unknown> | unknown[], string | number];
    if (how === 'delete' && !Array.isArray(parent)) delete parent[key as string];
    else if (how === 'add' && !Array.isArray(parent)) parent[`${String(key)}x`] = value;
    else (parent as Record<string | number, unknown>)[key] = value;
    return stringify(data);
  });

function fieldPlaces(value: unknown): [object, string | number][] {
  if (value === null || typeof value !== 'object') return [];
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  return entries.flatMap(([key, child]) => [[value, key] as [object, string | number], ...fieldPlaces(child)]);
}

describe('the scenario loader under fuzzing', () => {
  const run = (name: string, texts: fc.Arbitrary<string>, numRuns: number, seed: number) =>
    it(`${name}: loads or throws located lines (${numRuns} cases)`, () => {
      const outcomes = new Set<string>();
      fc.assert(
        fc.property(texts, (text) => {
          outcomes.add(checkLoad(text));
        }),
        { seed, numRuns },
      );
      // A fuzz that never gets past the parser (or never fails) proves little.
      expect(outcomes).toContain('rejected');
    });

  run('random YAML-ish text', randomText, 1500, 1103);
  run('mutated built-in scenarios', mutatedBuiltIn, 1500, 1109);
  run('built-in scenarios with a field replaced', replacedField, 1200, 42);

  it('reaches both outcomes on mutated built-ins', () => {
    const outcomes = new Set(fc.sample(mutatedBuiltIn, { seed: 7, numRuns: 300 }).map(checkLoad));
    expect([...outcomes].sort()).toEqual(['loaded', 'rejected']);
  });
});
