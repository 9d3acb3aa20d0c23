/**
 * The arms side by side, as a Markdown table: the terminal prints it, `arms.md` keeps it, and the
 * docs carry it as it is.
 */
import { formatBytes, formatCount } from '../report/index.ts';
import type { ArmFigures } from './arm-figures.ts';

const COLUMNS = [
  'answer (binary)',
  'chaos',
  'history per run (mean / max)',
  'events per run (mean / max)',
  'stored',
  'input tokens (agent + compaction)',
  'wall',
  'p99 turn',
  'broke first',
] as const;

function brokeFirst(figures: ArmFigures): string {
  const broke = figures.brokeFirst;
  return broke ? `${broke.what} at turn ${broke.turn}` : 'nothing';
}

function row(figures: ArmFigures): string[] {
  const { historyBytesPerRun: history, eventsPerRun: events, inputTokens: tokens } = figures;
  return [
    `${figures.answer} (${figures.binary})`,
    figures.chaos,
    `${formatBytes(history.mean)} / ${formatBytes(history.max)}`,
    `${formatCount(events.mean)} / ${formatCount(events.max)}`,
    figures.storedObjects > 0 ? `${formatBytes(figures.storedBytes)} in ${formatCount(figures.storedObjects)} objects` : '-',
    `${formatCount(tokens.agent)} + ${formatCount(tokens.compaction)}`,
    `${figures.wallSeconds} s`,
    `${formatCount(figures.turnLatencyP99Ms)} ms`,
    brokeFirst(figures),
  ];
}

export function armsTable(arms: readonly ArmFigures[]): string {
  const lines = [COLUMNS, COLUMNS.map(() => '---'), ...arms.map(row)];
  return lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}
