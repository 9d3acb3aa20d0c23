/**
 * The binaries a scenario's chaos steps name (`binary`, `to`) must be its target's: the kernel's
 * for `target.binaries`, the foreign target's own names for `target.external` (`binary` one that
 * starts runs). A foreign worker is one process that runs its workflows and its activities, so
 * a kill takes it whole: `part` cannot name one of them alone. Reads a scenario that may be only
 * partly valid (it runs beside the schema's other checks).
 */
import { BINARY_IDS } from '../kernel/index.ts';
import { closestName } from './closest-name.ts';

export interface ChaosBinaryProblem {
  path: (string | number)[];
  message: string;
}

interface ForeignBinaries {
  binaries?: Record<string, { startsRuns?: boolean } | undefined>;
}

export function chaosBinaryProblems(chaos: unknown, external: ForeignBinaries | undefined): ChaosBinaryProblem[] {
  if (!Array.isArray(chaos)) return [];
  const names = external ? Object.keys(external.binaries ?? {}) : [...BINARY_IDS];
  const launched = external ? names.filter((name) => external.binaries?.[name]?.startsRuns !== false) : names;
  const problems: ChaosBinaryProblem[] = [];
  const check = (index: number, field: string, value: unknown, known: readonly string[]) => {
    if (typeof value !== 'string' || known.includes(value)) return;
    const guess = closestName(value, known);
    problems.push({
      path: ['chaos', index, field],
      message: `expected one of ${known.join(', ')}${guess ? `; did you mean ${guess}?` : ''}`,
    });
  };
  chaos.forEach((step: { binary?: unknown; to?: unknown; part?: unknown } | undefined, index) => {
    check(index, 'binary', step?.binary, launched);
    check(index, 'to', step?.to, names);
    if (external && (step?.part === 'workflows' || step?.part === 'activities')) {
      problems.push({
        path: ['chaos', index, 'part'],
        message: `a foreign worker runs its workflows and activities in one process: a kill takes both (leave part out, or both)`,
      });
    }
  });
  return problems;
}
