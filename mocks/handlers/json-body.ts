/** Reading a JSON request body against a schema, as every mock endpoint does. */
import type { z } from 'zod';
import { describeIssue } from '../synthetic/run-shape.ts';

/** Parses a body against a schema; throws one line naming the field. */
export function parseBody<T extends z.ZodType>(text: string, schema: T): z.infer<T> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('body: not valid JSON');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new Error(describeIssue('body', parsed.error.issues[0]));
  return parsed.data;
}
