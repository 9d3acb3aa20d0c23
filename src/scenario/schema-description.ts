/**
 * What a field of the scenario schema accepts, in words ("a positive integer", "one of v0,
 * v1"), for error messages. Read from the zod schema along a field path, described through its
 * JSON Schema so that zod's internals stay out of it.
 */
import { z } from 'zod';
import type { FieldPath } from './yaml-location.ts';

type Schema = z.core.$ZodType;
type JsonSchema = z.core.JSONSchema.BaseSchema;

/** The schema of the field at `path`, with defaults and optionality peeled off; null when the path leaves the schema. */
export function schemaAt(root: Schema, path: FieldPath): Schema | null {
  let schema: Schema | null = unwrap(root);
  for (const segment of path) {
    if (!schema) return null;
    schema = childSchema(schema, segment);
  }
  return schema;
}

/** The keys a mapping at `path` accepts (empty when it accepts any). */
export function knownKeys(root: Schema, path: FieldPath): string[] {
  const schema = schemaAt(root, path);
  const options = schema instanceof z.ZodUnion ? schema.options.map(unwrap) : schema ? [schema] : [];
  return [...new Set(options.flatMap((option) => (option instanceof z.ZodObject ? Object.keys(option.shape) : [])))];
}

function childSchema(schema: Schema, segment: PropertyKey): Schema | null {
  if (schema instanceof z.ZodUnion) {
    for (const option of schema.options) {
      const child = childSchema(unwrap(option), segment);
      if (child) return child;
    }
    return null;
  }
  if (schema instanceof z.ZodObject) {
    const field = typeof segment === 'string' ? schema.shape[segment] : undefined;
    return field ? unwrap(field) : null;
  }
  if (schema instanceof z.ZodArray) return typeof segment === 'number' ? unwrap(schema.element) : null;
  if (schema instanceof z.ZodRecord) return unwrap(schema.valueType);
  return null;
}

function unwrap(schema: Schema): Schema {
  let current = schema;
  while (
    current instanceof z.ZodDefault ||
    current instanceof z.ZodOptional ||
    current instanceof z.ZodNullable ||
    current instanceof z.ZodPrefault ||
    current instanceof z.ZodReadonly
  ) {
    current = current.unwrap();
  }
  return current;
}

/** "a positive integer", "one of v0, v1", "a mapping"... */
export function describeSchema(schema: Schema): string {
  return describeJson(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }));
}

function describeJson(schema: JsonSchema): string {
  const type = schema.type;
  if (typeof schema.description === 'string' && type !== 'object') return schema.description;
  if (schema.anyOf || schema.oneOf) {
    const options = [...new Set((schema.anyOf ?? schema.oneOf ?? []).map((option) => describeJson(option as JsonSchema)))];
    return joinOr(options);
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.length === 1 ? JSON.stringify(schema.enum[0]) : `one of ${schema.enum.join(', ')}`;
  if (Array.isArray(type)) return joinOr(type.map((t) => describeJson({ type: t })));
  switch (type) {
    case 'integer':
    case 'number':
      return describeNumber(schema, type);
    case 'string':
      if (schema.pattern) return `a string matching ${schema.pattern}`;
      return schema.minLength ? 'a non-empty string' : 'a string';
    case 'boolean':
      return 'a boolean';
    case 'null':
      return 'an empty value';
    case 'array': {
      const items = schema.items && !Array.isArray(schema.items) ? (schema.items as JsonSchema) : undefined;
      const of = items?.enum ? ` of ${describeJson(items).replace(/^one of /, '')}` : '';
      return `${schema.minItems ? 'a non-empty list' : 'a list'}${of}`;
    }
    case 'object':
      return 'a mapping';
    default:
      return 'any value';
  }
}

function describeNumber(schema: JsonSchema, type: 'integer' | 'number'): string {
  const noun = type === 'integer' ? 'integer' : 'number';
  const article = type === 'integer' ? 'an' : 'a';
  // zod writes the safe-integer range into every int; it is no rule an author needs to hear.
  const max = schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER ? schema.maximum : undefined;
  const { minimum: min, exclusiveMinimum: above, exclusiveMaximum: below } = schema;
  if (above === 0 && max === undefined && below === undefined) return `a positive ${noun}`;
  if (min !== undefined && max !== undefined) return `${article} ${noun} from ${min} to ${max}`;
  const bounds = [
    min !== undefined && min > Number.MIN_SAFE_INTEGER ? `>= ${min}` : '',
    typeof above === 'number' ? `> ${above}` : '',
    max !== undefined ? `<= ${max}` : '',
    typeof below === 'number' ? `< ${below}` : '',
  ].filter(Boolean);
  return [`${article} ${noun}`, ...bounds].join(' ');
}

function joinOr(items: string[]): string {
  if (items.length <= 1) return items[0] ?? 'any value';
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}
