/**
 * StrykerJS's JSON report, summed up: the score and every surviving mutant (file:line:column,
 * mutator, the line and its replacement).
 */
interface ReportMutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number } };
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
        const original = lines[line - 1]?.trim() ?? '';
        survivors.push(`${file}:${line}:${column} ${m.mutatorName} (${m.status}): \`${original}\` -> \`${m.replacement ?? ''}\``);
      }
    }
  }
  const percent = valid === 0 ? 0 : (100 * detected) / valid;
  return { detected, valid, score: `${detected}/${valid} (${percent.toFixed(1)}%)`, survivors };
}
