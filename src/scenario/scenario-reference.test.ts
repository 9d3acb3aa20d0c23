import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCENARIO_JSON_SCHEMA_FILE } from './json-schema.ts';
import { SCENARIO_REFERENCE_FILE, scenarioReferenceText } from './scenario-reference.ts';

describe('docs/reference/scenario.md', () => {
  it('is what the JSON Schema gives (run `npm run schema` when this fails)', () => {
    expect(readFileSync(SCENARIO_REFERENCE_FILE, 'utf8')).toBe(scenarioReferenceText());
  });

  it('lists every top-level field, and a field the schema gains with its type and description', () => {
    const schema = JSON.parse(readFileSync(SCENARIO_JSON_SCHEMA_FILE, 'utf8'));
    const text = scenarioReferenceText(JSON.stringify(schema));
    for (const field of Object.keys(schema.properties)) expect(text).toContain(`## \`${field}\``);
    schema.properties.runs.properties.warmRuns = { type: 'integer', minimum: 0, description: 'runs started before the clock' };
    const grown = scenarioReferenceText(JSON.stringify(schema));
    expect(grown).not.toBe(text);
    expect(grown).toContain('| `runs.warmRuns` | integer, >= 0 |  | runs started before the clock |');
  });

  it('names the forms of a chaos step, a fault and an expectation', () => {
    const text = scenarioReferenceText();
    expect(text).toContain('| `chaos[].action` |');
    expect(text).toContain('`faults.agent[].fault (kind: http-429).retryAfterSeconds`');
    expect(text).toMatch(/\| `expect\[\]\.reproduces` \| `tmprl1103`, `history-size`, `history-count` or object \|/);
    expect(text).toContain('| `runs.timeout` | duration | `"2m"` |');
  });
});
