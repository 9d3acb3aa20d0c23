/**
 * The journal's hash: sha256 over canonical JSON (keys sorted at every depth). Not
 * workflow-safe (node:crypto): used by the journal activity and by the checks.
 */
import { createHash } from 'node:crypto';
import type { JournalEvent } from './kernel-api.ts';

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function journalHash(event: JournalEvent): string {
  return createHash('sha256').update(canonicalJson(event)).digest('hex');
}
