import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCENARIO_JSON_SCHEMA_FILE, scenarioJsonSchemaText } from './json-schema.ts';

describe('the JSON Schema of scenario files', () => {
  it('is up to date with the zod schema (run `npm run schema` when this fails)', () => {
    expect(readFileSync(SCENARIO_JSON_SCHEMA_FILE, 'utf8')).toBe(scenarioJsonSchemaText());
  });

  it('describes the fields editors complete', () => {
    const schema = JSON.parse(scenarioJsonSchemaText());
    expect(schema.required).toEqual(['name', 'seed', 'expect']);
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['name', 'seed', 'target', 'server', 'limits', 'runs', 'shape', 'faults', 'chaos', 'expect']),
    );
  });

  it("completes shape and faults from the mocks' schemas, with their descriptions", () => {
    const { shape, faults } = JSON.parse(scenarioJsonSchemaText()).properties;
    expect(Object.keys(shape.properties)).toEqual([
      'tokens',
      'scale',
      'turns',
      'callsPerTurn',
      'systemPromptBytes',
      'screenshots',
      'toolOutputs',
      'text',
      'overrides',
      'turnsProfile',
    ]);
    const overrides = shape.properties.overrides.anyOf[0];
    expect(overrides.additionalProperties).toBe(false);
    expect(overrides.properties.turns).toMatchObject({ type: 'integer', description: expect.stringContaining('model calls') });
    expect(Object.keys(faults.properties)).toEqual(['seed', 'agent', 'compaction', 'sandbox']);
    const rule = faults.properties.compaction.items;
    expect(rule.properties.fault.oneOf.map((spec: { properties: { kind: { const: string } } }) => spec.properties.kind.const)).toContain(
      'oversized-card',
    );
    expect(rule.properties.when.properties.probability.description).toMatch(/seeded/);
  });
});
