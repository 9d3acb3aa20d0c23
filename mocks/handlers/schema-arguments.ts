/**
 * Arguments for an agent's own tool, made from its JSON Schema by json-schema-faker (seeded:
 * the same seed gives the same bytes), then checked with ajv. Arguments that do not fit their
 * schema are a bug of the mock, never an answer: the client would fail on them, not the run.
 */
import { generateSync, type JsonSchema, type Random } from 'json-schema-faker';
import { argumentsProblem } from './argument-schema.ts';

type Schema = Record<string, unknown>;

/** Formats json-schema-faker leaves to chance (its durations can end in a bare `T`; `byte` is base64). */
const FORMATS: Record<string, (random: Random) => string> = {
  duration: (random) => (random.bool() ? `P${random.int(0, 30)}D` : `PT${random.int(1, 59)}M`),
  byte: (random) => Buffer.from(Array.from({ length: random.int(3, 24) }, () => random.int(0, 255))).toString('base64'),
};

/** Seeded arguments that fit `schema` (a tool without one takes none); `call` names the call in the error. */
export function schemaArguments(schema: Schema | null, seed: number, call: string): Record<string, unknown> {
  if (schema === null) return {};
  let value: unknown;
  try {
    value = generateSync(schema as JsonSchema, { seed, formats: FORMATS });
  } catch (error) {
    throw new Error(`mock bug: no arguments could be made for ${call} from its schema: ${(error as Error).message}`);
  }
  const problem = argumentsProblem(schema, value);
  if (problem !== null) {
    throw new Error(`mock bug: the arguments made for ${call} do not fit its schema (${problem}): ${JSON.stringify(value)}`);
  }
  return value as Record<string, unknown>;
}
