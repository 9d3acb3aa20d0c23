/**
 * A tool call's arguments checked against the JSON Schema its tool declares, with ajv and its
 * formats, as a client library that parses them would. The schema's `$schema` picks the draft
 * (none: 2020-12, which Pydantic's `prefixItems` and `$defs` follow). Every request carries its
 * tools anew, so compiled validators are kept by the schema's text.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

type Schema = Record<string, unknown>;

/** Unknown keywords (`title`, `discriminator`...) are left alone, as the providers leave them. */
const OPTIONS = { strict: false, logger: false, allErrors: false } as const;

function ajvFor(draft: 'draft-07' | '2019-09' | '2020-12'): Ajv {
  const ajv = draft === '2020-12' ? new Ajv2020(OPTIONS) : draft === '2019-09' ? new Ajv2019(OPTIONS) : new Ajv(OPTIONS);
  formats.default(ajv);
  return ajv;
}

const validators = { 'draft-07': ajvFor('draft-07'), '2019-09': ajvFor('2019-09'), '2020-12': ajvFor('2020-12') };

function draftOf(schema: Schema): keyof typeof validators {
  const named = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (/draft-0[4-7]/.test(named)) return 'draft-07';
  if (named.includes('2019-09')) return '2019-09';
  return '2020-12';
}

const CACHE_SIZE = 256;
const compiled = new Map<string, { ajv: Ajv; schema: Schema; validate: ValidateFunction }>();

/** The schema's validator; throws when ajv cannot read the schema. */
function validatorOf(schema: Schema): ValidateFunction {
  const key = JSON.stringify(schema);
  const found = compiled.get(key);
  if (found) return found.validate;
  // The meta-schema is picked here, and a root `$id` shared by two tools must not clash in ajv's registry.
  const { $schema: _, $id: __, ...body } = schema;
  const ajv = validators[draftOf(schema)];
  const validate = ajv.compile(body);
  if (compiled.size >= CACHE_SIZE) {
    const [oldest, entry] = compiled.entries().next().value as [string, { ajv: Ajv; schema: Schema }];
    entry.ajv.removeSchema(entry.schema);
    compiled.delete(oldest);
  }
  compiled.set(key, { ajv, schema: body, validate });
  return validate;
}

/** Why the schema cannot be read, or null. */
export function schemaProblem(schema: Schema): string | null {
  try {
    validatorOf(schema);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Why `value` does not fit `schema` (ajv's first error, `arguments/city must be string`), or null. */
export function argumentsProblem(schema: Schema | null, value: unknown): string | null {
  if (schema === null) return null;
  const validate = validatorOf(schema);
  if (validate(value)) return null;
  const [error] = validate.errors ?? [];
  const params = error?.params && Object.keys(error.params).length > 0 ? ` ${JSON.stringify(error.params)}` : '';
  return `arguments${error?.instancePath ?? ''} ${error?.message ?? 'is not valid'}${params}`;
}
