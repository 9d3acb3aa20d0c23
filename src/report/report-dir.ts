/** Where a report goes: `reports/<time>-<scenario>/`, both parts safe in any file system. */
import { join } from 'node:path';

const MAX_SCENARIO_CHARS = 80;

/** `2026-11-30T10:41:07.123Z` as `2026-11-30T10-41-07Z`: no colons (Windows), sorted by time. */
export function reportTimestamp(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new Error('reportDirFor: date is not a valid Date');
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll(':', '-');
}

/** A scenario name as one path segment: letters, digits, dot, underscore and dash. */
export function scenarioSlug(scenario: string): string {
  const slug = scenario
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/[-.]*-[-.]*/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, MAX_SCENARIO_CHARS);
  return slug || 'scenario';
}

/** The report folder of a scenario started at `date`, under `root`. */
export function reportDirFor(scenario: string, date: Date, root = 'reports'): string {
  return join(root, `${reportTimestamp(date)}-${scenarioSlug(scenario)}`);
}
