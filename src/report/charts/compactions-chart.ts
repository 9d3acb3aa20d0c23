/** Chart 3: every compaction, as an arrow from the bytes before to the bytes after (red dot when it failed). */

import type { CompactionRecord, RunRecord, Summary } from '../../result/index.ts';
import { formatBytes, formatCount, plural } from '../format.ts';
import type { Chart } from './chart.ts';
import { dot } from './marks.ts';
import { COLORS } from './palette.ts';
import { createPlot, emptyChart, linePath, referenceLine, tooltip } from './plot.ts';
import { requestBytesAt } from './series.ts';

export const COMPACTIONS_CHART = 'compactions';
/** Events drawn at most: failed ones first, then the largest before. */
export const MAX_COMPACTION_EVENTS = 800;
const TITLE = 'Compaction events: bytes before and after';

interface CompactionEvent {
  run: RunRecord;
  compaction: CompactionRecord;
  before: number;
}

export function compactionsChart(summary: Summary): Chart {
  const { limits } = summary;
  const events: CompactionEvent[] = summary.runs.flatMap((run) =>
    run.compactions.map((compaction) => ({
      run,
      compaction,
      before: compaction.bytesBefore ?? requestBytesAt(run, compaction.turn) ?? limits.compactionTriggerBytes,
    })),
  );
  if (events.length === 0) {
    return {
      name: COMPACTIONS_CHART,
      title: TITLE,
      svg: emptyChart(COMPACTIONS_CHART, TITLE, 'no compaction happened'),
      caption: '',
      legend: [],
    };
  }
  const failed = events.filter((e) => !e.compaction.ok).length;
  const drawn = [...events]
    .sort((a, b) => Number(a.compaction.ok) - Number(b.compaction.ok) || b.before - a.before)
    .slice(0, MAX_COMPACTION_EVENTS);
  const maxTurn = events.reduce((max, e) => Math.max(max, e.compaction.turn), 1);
  const maxBytes = events.reduce((max, e) => Math.max(max, e.before, e.compaction.bytesAfter ?? 0), limits.compactionTriggerBytes);
  const plot = createPlot({
    name: COMPACTIONS_CHART,
    title: TITLE,
    xDomain: [0, maxTurn + 1],
    yDomain: [0, maxBytes * 1.08],
    xLabel: 'turn of the compaction',
    yLabel: 'request bytes',
    xFormat: formatCount,
    yFormat: formatBytes,
  });
  // Draw the ok ones first so failures stay on top.
  for (const { run, compaction, before } of [...drawn].reverse()) {
    const at = { x: compaction.turn, y: before };
    if (compaction.ok && compaction.bytesAfter !== undefined) {
      const after = { x: compaction.turn, y: compaction.bytesAfter };
      const label = `${run.runId} turn ${compaction.turn}: ${formatBytes(before)} to ${formatBytes(compaction.bytesAfter)}${compaction.dropped === undefined ? '' : `, ${formatCount(compaction.dropped)} dropped`}${compaction.kept === undefined ? '' : `, ${formatCount(compaction.kept)} kept`}`;
      plot.add(
        `<path class="compaction ok" d="${linePath([at, after], plot)}" stroke="${COLORS.ok}" stroke-width="1.5" fill="none">${tooltip(label)}</path>`,
      );
      plot.add(dot(plot, after, { className: 'compaction ok', color: COLORS.ok, label, radius: 2.5 }));
    } else {
      const why = compaction.ok ? 'compacted (bytes after unknown)' : `failed${compaction.reason ? `: ${compaction.reason}` : ''}`;
      plot.add(
        dot(plot, at, {
          className: `compaction ${compaction.ok ? 'ok' : 'failed'}`,
          color: compaction.ok ? COLORS.ok : COLORS.failed,
          label: `${run.runId} turn ${compaction.turn}: ${why} at ${formatBytes(before)}`,
          radius: 4,
        }),
      );
    }
  }
  plot.add(
    referenceLine(plot, limits.compactionTriggerBytes, `compaction trigger ${formatBytes(limits.compactionTriggerBytes)}`, COLORS.trigger),
  );

  const notes = [
    `${plural(events.length, 'compaction')} in ${plural(new Set(events.map((e) => e.run)).size, 'run')}: ${formatCount(events.length - failed)} ok (green line from the bytes before down to the dot after), ${formatCount(failed)} failed (red dots, at the bytes before).`,
    drawn.length < events.length ? `Showing ${formatCount(drawn.length)} of them: failed ones first, then the largest before.` : '',
  ];
  return { name: COMPACTIONS_CHART, title: TITLE, svg: plot.svg(), caption: notes.filter(Boolean).join(' '), legend: [] };
}
