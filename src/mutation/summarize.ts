/**
 * StrykerJS's JSON report, summed up: the score and every surviving mutant (file:line:column,
 * its id, mutator, the code it replaces and its replacement). Several mutants of one line can
 * have the same replacement (`a >= b && c()` -> `true`, and `a >= b` -> `true` inside it): the
 * replaced code, not the line, tells them apart.
 */
interface Position {
  line: number;
  column: number;
}
interface ReportMutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: Position; end?: Position };
}

/** The source text from `start` to `end` (1-based lines, 1-based columns as Stryker writes them), on one line. */
function replaced(lines: readonly string[], start: Position, end: Position | undefined): string {
  if (!end) return lines[start.line - 1]?.trim() ?? '';
  const text = lines.slice(start.line - 1, end.line).join('\n');
  const from = start.column - 1;
  const to = text.length - ((lines[end.line - 1]?.length ?? 0) - (end.column - 1));
  return text.slice(from, to).replace(/\s+/g, ' ');
}
export interface Report {
  files: Record<string, { source: string; mutants: ReportMutant[] }>;
}

/** Stryker's score: killed and timed out over all valid mutants (compile and runtime errors aside). */
const DETECTED = new Set(['Killed', 'Timeout']);
const INVALID = new Set(['CompileError', 'RuntimeError', 'Ignored']);

export interface MutationSummary {
  detected: number;
  valid: number;
  score: string;
  survivors: string[];
}

export function summarize(report: Report): MutationSummary {
  let detected = 0;
  let valid = 0;
  const survivors: string[] = [];
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    const lines = source.split('\n');
    for (const m of mutants) {
      if (INVALID.has(m.status)) continue;
      valid++;
      if (DETECTED.has(m.status)) detected++;
      else {
        const { line, column } = m.location.start;
        const original = replaced(lines, m.location.start, m.location.end);
        survivors.push(`${file}:${line}:${column} #${m.id} ${m.mutatorName} (${m.status}): \`${original}\` -> \`${m.replacement ?? ''}\``);
      }
    }
  }
  const percent = valid === 0 ? 0 : (100 * detected) / valid;
  return { detected, valid, score: `${detected}/${valid} (${percent.toFixed(1)}%)`, survivors };
}
