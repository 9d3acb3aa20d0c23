import { lookUp, type ResolvedReference } from '../history/external-storage.ts';
import { payloadSize } from '../history/payloads.ts';
import type { Execution } from '../run/run-view.ts';
import { bytes, type HistoryInvariant, judge } from '../verdict.ts';
import { referencePlace } from './payload-ceiling.ts';

/** How many references each driver holds: "s3: 4, memory: 1". */
function byDriver(references: readonly ResolvedReference[]): string {
  const counts = new Map<string, number>();
  for (const r of references) counts.set(r.driverName || '(unreadable)', (counts.get(r.driverName || '(unreadable)') ?? 0) + 1);
  return [...counts].map(([driver, n]) => `${driver}: ${n}`).join(', ');
}

export const payloadReferencesResolve: HistoryInvariant = {
  id: 'payload.references-resolve',
  appliesTo: 'any-workflow',
  description:
    'every payload offloaded to External Storage resolves: its reference reads, and the store given holds its object, of the size the reference states',
  readsPayloads: false,
  check(run, ctx) {
    const failures: string[] = [];
    const all: { execution: Execution; r: ResolvedReference }[] = run.executions.flatMap((execution) =>
      (execution.history.references ?? []).map((r) => ({ execution, r })),
    );
    if (all.length === 0)
      return judge(this.id, [], ['nothing offloaded: no payload of the history is an External Storage reference'], false);
    let resolved = 0;
    let storedBytes = 0;
    const unjudged: ResolvedReference[] = [];
    for (const { execution, r } of all) {
      const place = referencePlace(run, execution, r);
      if (r.problem) {
        failures.push(`${place}: malformed External Storage reference: ${r.problem}`);
        continue;
      }
      // The context's store, when given, is the store as it is now (an object may be gone since the history was loaded).
      const stored = ctx.storedPayloads ? lookUp(ctx.storedPayloads, r) : r.resolution;
      if (stored === 'no-store') {
        unjudged.push(r);
        continue;
      }
      if (stored === 'missing' || stored === 'unreadable') {
        failures.push(`${place}: stored payload missing (driver ${r.driverName}, key ${r.key})`);
        continue;
      }
      const size = r.storedBytes ?? (typeof stored === 'object' ? payloadSize(stored) : undefined);
      if (size !== undefined && r.sizeBytes !== undefined && r.sizeBytes !== size) {
        failures.push(`${place}: the stored payload is ${bytes(size)} bytes, the reference says ${bytes(r.sizeBytes)} (key ${r.key})`);
        continue;
      }
      resolved++;
      storedBytes += size ?? 0;
    }
    const notes: string[] = [];
    if (resolved > 0)
      notes.push(`${resolved} of ${all.length} references resolve (${bytes(storedBytes)} bytes stored; ${byDriver(all.map((a) => a.r))})`);
    if (unjudged.length > 0 && failures.length === 0) {
      return judge(
        this.id,
        [],
        [`${unjudged.length} references (${byDriver(unjudged)}) and no stored payloads given: not resolved`, ...notes],
        false,
      );
    }
    if (unjudged.length > 0) notes.push(`${unjudged.length} references not resolved: no stored payloads given`);
    return judge(this.id, failures, notes, true);
  },
};
