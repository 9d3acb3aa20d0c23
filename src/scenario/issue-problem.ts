/**
 * One zod issue of a scenario, turned into what an author needs: the field path, where it sits
 * in the file, and the problem in words. Unions are resolved to the branch the author
 * evidently meant (the one of the right kind that knows every key given and misses the fewest), so that a typo in
 * `expect[0].hold` is reported there and not as "invalid input" on the whole expectation.
 */
import type { z } from 'zod';
import { closestName } from './closest-name.ts';
import { describeSchema, knownKeys, schemaAt } from './schema-description.ts';
import type { FieldPath } from './yaml-location.ts';

type Issue = z.core.$ZodIssue;

export type Problem =
  /** The node at `path` holds a bad value (or, when it is absent, the key is missing). */
  | { kind: 'value'; path: FieldPath; message: string }
  /** `key` is not a field of the mapping at `path`. */
  | { kind: 'unknown-key'; path: FieldPath; key: string; message: string };

export function problemOf(issue: Issue, data: unknown, schema: z.core.$ZodType): Problem {
  return explain(issue, [], data, schema);
}

function explain(issue: Issue, base: FieldPath, data: unknown, root: z.core.$ZodType): Problem {
  const path = [...base, ...issue.path];
  const value = valueAt(data, path);
  switch (issue.code) {
    case 'invalid_union':
      return explainUnion(issue, path, data, root);
    case 'unrecognized_keys':
      return unknownKey(path, issue.keys, knownKeys(root, path));
    case 'custom':
      return explainCustom(issue.message, path, value);
    case 'invalid_format':
      if (!issue.message.startsWith('Invalid')) return { kind: 'value', path, message: `expected ${issue.message}, got ${show(value)}` };
      break;
  }
  const schema = schemaAt(root, path);
  const expected = schema ? describeSchema(schema) : issue.message;
  if (value === undefined && path.length > 0 && isMapping(valueAt(data, path.slice(0, -1)))) {
    return { kind: 'value', path, message: `missing (expected ${expected})` };
  }
  const guess = issue.code === 'invalid_value' && typeof value === 'string' ? closestName(value, issue.values.map(String)) : undefined;
  return { kind: 'value', path, message: `expected ${expected}, got ${show(value)}${guess ? `; did you mean ${guess}?` : ''}` };
}

function explainUnion(issue: Extract<Issue, { code: 'invalid_union' }>, path: FieldPath, data: unknown, root: z.core.$ZodType): Problem {
  const value = valueAt(data, path);
  const branches = issue.errors.map((errors) => ({ errors, fit: branchFit(errors, path, data) }));
  const expected = () => {
    const schema = schemaAt(root, path);
    return schema ? describeSchema(schema) : 'a valid value';
  };
  if (branches.length === 0 || branches.every((b) => b.fit.wrongShape)) {
    return { kind: 'value', path, message: `expected ${expected()}, got ${show(value)}` };
  }
  // Every branch lacks only its own key (`hold`, `reproduces`, `violates`, `ends` or `replay`): name them all.
  if (branches.every((b) => b.fit.missingKeys.length > 0 && b.fit.missingKeys.length === b.errors.length)) {
    const keys = [...new Set(branches.flatMap((b) => b.fit.missingKeys))];
    return { kind: 'value', path, message: `needs ${keys.length > 1 ? 'one of ' : ''}${keys.join(', ')}` };
  }
  const best = branches.reduce((a, b) => (compareFit(b.fit, a.fit) < 0 ? b : a));
  const first = best.errors.find((e) => !isMissing(e, path, data)) ?? best.errors[0];
  return first ? explain(first, path, data, root) : { kind: 'value', path, message: issue.message };
}

interface BranchFit {
  /** The value is not even the kind of thing this branch wants (a string for a mapping). */
  wrongShape: boolean;
  /** Keys given that this branch does not know. */
  unknownKeys: number;
  /** Keys of this mapping that the branch needs and the file leaves out. */
  missingKeys: string[];
  /** Missing fields at any depth. */
  missing: number;
}

function branchFit(errors: readonly Issue[], path: FieldPath, data: unknown): BranchFit {
  const missing = errors.filter((e) => isMissing(e, path, data));
  return {
    wrongShape: errors.some((e) => e.path.length === 0 && e.code !== 'unrecognized_keys'),
    unknownKeys: errors.reduce((n, e) => n + (e.code === 'unrecognized_keys' && e.path.length === 0 ? e.keys.length : 0), 0),
    missingKeys: missing.filter((e) => e.path.length === 1).map((e) => String(e.path[0])),
    missing: missing.length,
  };
}

function compareFit(a: BranchFit, b: BranchFit): number {
  return Number(a.wrongShape) - Number(b.wrongShape) || a.unknownKeys - b.unknownKeys || a.missing - b.missing;
}

function isMissing(issue: Issue, base: FieldPath, data: unknown): boolean {
  if (issue.path.length === 0) return false;
  const path = [...base, ...issue.path];
  return valueAt(data, path) === undefined && isMapping(valueAt(data, path.slice(0, -1)));
}

/** The mocks' parsers report through custom issues with zod's own wording: make it read like the rest. */
function explainCustom(message: string, path: FieldPath, value: unknown): Problem {
  if (/^Unrecognized keys?: /.test(message) && isMapping(value)) {
    // zod quotes the keys without escaping them: find which of the mapping's keys it names.
    const keys = Object.keys(value)
      .map((key) => ({ key, at: message.indexOf(`"${key}"`) }))
      .filter(({ at }) => at >= 0)
      .sort((a, b) => a.at - b.at)
      .map(({ key }) => key);
    if (keys.length > 0) return unknownKey(path, keys, []);
  }
  const text = message.replace(/^(Invalid input|Invalid option|Too small|Too big): /, '').replace(/, received \w+$/, '');
  const got = value === undefined || typeof value === 'object' ? '' : `, got ${show(value)}`;
  return { kind: 'value', path, message: `${text}${got}` };
}

function unknownKey(path: FieldPath, keys: readonly string[], known: readonly string[]): Problem {
  const key = keys[0] ?? '';
  const guess = closestName(key, known);
  const others = keys.length > 1 ? ` (and ${keys.length - 1} more: ${keys.slice(1).map(showKey).join(', ')})` : '';
  const hint = guess ? `; did you mean ${guess}?` : known.length > 0 ? `; known keys: ${known.join(', ')}` : '';
  return { kind: 'unknown-key', path, key, message: `unknown key ${showKey(key)}${hint}${others}` };
}

function valueAt(data: unknown, path: FieldPath): unknown {
  let current = data;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    if (!Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value as the author wrote it, short. */
function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'an empty value';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : 'a list';
  if (value instanceof Uint8Array) return 'binary data';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  return String(value);
}

function showKey(key: string): string {
  return /^[\w$.-]+$/.test(key) ? key : JSON.stringify(key);
}

/** `runs.concurrency`, `expect[0].hold`, `server.dynamicConfig["limit.blobSize.error"]`. */
export function formatPath(path: FieldPath): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment)) text += text ? `.${segment}` : segment;
    else text += `[${JSON.stringify(String(segment))}]`;
  }
  return text;
}
