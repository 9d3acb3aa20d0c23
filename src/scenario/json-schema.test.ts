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
});
