/**
 * A foreign worker's target, taken from a scenario that already drives it (`from-history
 * --target`): its `target.external` as written, its relative paths (every `cwd`, the mapping)
 * rebased from that scenario's folder to the folder of the scenario being written.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { parse } from 'yaml';

export interface ForeignTarget {
  /** `target.external`, paths rebased. */
  external: Record<string, unknown>;
  /** Its binaries' names. */
  names: string[];
}

function rebase(value: unknown, from: string, to: string, key?: string): unknown {
  if (typeof value === 'string' && (key === 'cwd' || key === 'mapping') && !isAbsolute(value)) {
    return relative(to, resolve(from, value)) || '.';
  }
  if (Array.isArray(value)) return value.map((item) => rebase(item, from, to));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rebase(v, from, to, k)]));
  }
  return value;
}

/** The external target of the scenario file, rebased for a scenario written in `outDir`. */
export function foreignTargetOf(scenarioFile: string, outDir: string): ForeignTarget {
  const raw = parse(readFileSync(scenarioFile, 'utf8')) as { target?: { external?: Record<string, unknown> } } | null;
  const external = raw?.target?.external;
  if (!external || typeof external !== 'object') throw new Error(`${scenarioFile}: its target is no external worker (target.external)`);
  const rebased = rebase(external, dirname(resolve(scenarioFile)), resolve(outDir)) as Record<string, unknown>;
  return { external: rebased, names: Object.keys((rebased.binaries as Record<string, unknown> | undefined) ?? {}) };
}
