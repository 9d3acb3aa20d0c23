import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FRAMEWORK_TOOLS, GET_WEATHER } from '../testing/framework-schemas.ts';
import { argumentsProblem, schemaProblem } from './argument-schema.ts';
import { schemaArguments } from './schema-arguments.ts';

const draft07 = formats.default(new Ajv({ strict: false }));
const draft2020 = formats.default(new Ajv2020({ strict: false }));
const compiled = new Map<unknown, (value: unknown) => boolean>();

/** A validator of the test's own, so that the generator is not checked by its own code alone. */
function independentlyValid(schema: Record<string, unknown>, value: unknown): boolean {
  let validate = compiled.get(schema);
  if (!validate) {
    const { $schema, ...body } = schema;
    validate = (String($schema ?? '').includes('draft-07') ? draft07 : draft2020).compile(body);
    compiled.set(schema, validate);
  }
  return validate(value);
}

describe('schemaArguments', () => {
  it.each(FRAMEWORK_TOOLS.map((tool) => [tool.name, tool] as const))(
    '%s: arguments for 300 seeds all fit the schema, and the same seed gives the same bytes',
    (_, tool) => {
      const made = Array.from({ length: 300 }, (_, seed) => schemaArguments(tool.parameters, seed, tool.name));
      for (const args of made) expect(independentlyValid(tool.parameters, args)).toBe(true);
      const again = Array.from({ length: 300 }, (_, seed) => schemaArguments(tool.parameters, seed, tool.name));
      expect(again.map((a) => JSON.stringify(a))).toEqual(made.map((a) => JSON.stringify(a)));
      expect(new Set(made.map((a) => JSON.stringify(a))).size).toBeGreaterThan(250);
    },
  );

  it('fits any seed (property-based, every framework schema)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.constantFrom(...FRAMEWORK_TOOLS), (seed, tool) => {
        const args = schemaArguments(tool.parameters, seed, tool.name);
        expect(independentlyValid(tool.parameters, args)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("writes the Agents SDK's get_weather arguments as its strict schema wants them", () => {
    const args = schemaArguments(GET_WEATHER.parameters, 7, 'get_weather');
    expect(Object.keys(args)).toEqual(['city']);
    expect(typeof args.city).toBe('string');
  });

  it('takes no arguments for a tool without a schema', () => {
    expect(schemaArguments(null, 1, 'ping')).toEqual({});
  });

  it('throws, naming the call, when it cannot make arguments that fit (a bug of the mock, never an answer)', () => {
    const impossible = { type: 'object', properties: { x: { type: 'string', not: { type: 'string' } } }, required: ['x'] };
    expect(() => schemaArguments(impossible, 1, 'x_tool (call 0 of turn 2 of run-1)')).toThrow(
      /^mock bug: .*x_tool \(call 0 of turn 2 of run-1\)/,
    );
  });
});

describe('argumentsProblem', () => {
  it("names the failing field in ajv's words, and null when the arguments fit", () => {
    expect(argumentsProblem(GET_WEATHER.parameters, { city: 'Oslo' })).toBeNull();
    expect(argumentsProblem(GET_WEATHER.parameters, { city: 3 })).toBe('arguments/city must be string {"type":"string"}');
    expect(argumentsProblem(GET_WEATHER.parameters, { city: 'Oslo', seed: 1 })).toMatch(/must NOT have additional properties/);
    expect(argumentsProblem(null, { anything: true })).toBeNull();
  });

  it('says why a schema cannot be read', () => {
    expect(schemaProblem({ type: 'object', properties: { a: { $ref: '#/$defs/Missing' } } })).toMatch(/Missing/);
    expect(schemaProblem(GET_WEATHER.parameters)).toBeNull();
  });
});
