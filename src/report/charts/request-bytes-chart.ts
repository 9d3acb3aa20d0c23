/** Chart 1: request bytes per turn of each run, against the compaction trigger and the blob limit. */

import type { CompactionRecord, RunRecord, Summary } from '../../result/index.ts';
import { formatBytes, formatCount, plural } from '../format.ts';
import type { Chart } from './chart.ts';
import { bandPath, dot, seriesPath } from './marks.ts';
import { COLORS, seriesColor } from './palette.ts';
import { createPlot, emptyChart, referenceLine } from './plot.ts';
import { MAX_POINTS_PER_LINE, requestBytesAt, requestLine, selectRuns } from './series.ts';

export const REQUEST_BYTES_CHART = 'request-bytes';
/** Compaction dots drawn at most; failed ones first. */
export const MAX_COMPACTION_MARKS = 600;
const TITLE = 'Request bytes per turn';
/**
 * The blob limit is on the axis when the requests or the trigger come within this factor of it:
 * a scaled-down scenario's (a 40 kB trigger) would otherwise be drawn along the floor of a 2 MiB
 * axis.
 */
const BLOB_LIMIT_REACH = 4;

interface Mark {
  run: RunRecord;
  compaction: CompactionRecord;
}

function compactionMarks(runs: readonly RunRecord[]): { marks: Mark[]; total: number } {
  const all = runs.flatMap((run) => run.compactions.map((compaction) => ({ run, compaction })));
  const ranked = [...all.filter((m) => !m.compaction.ok), ...all.filter((m) => m.compaction.ok)];
  return { marks: ranked.slice(0, MAX_COMPACTION_MARKS), total: all.length };
}

export function requestBytesChart(summary: Summary): Chart {
  const { limits } = summary;
  const runs = summary.runs.filter((run) => run.turns.length > 0);
  if (runs.length === 0) {
    return {
      name: REQUEST_BYTES_CHART,
      title: TITLE,
      svg: emptyChart(REQUEST_BYTES_CHART, TITLE, 'no turn was recorded'),
      caption: '',
      legend: [],
    };
  }
  const lines = runs.map(requestLine);
  const maxTurn = lines.reduce((max, line) => Math.max(max, line.at(-1)?.x ?? 0), 1);
  const maxBytes = lines.reduce((max, line) => line.reduce((m, p) => Math.max(m, p.y), max), 0);
  const reached = Math.max(maxBytes, limits.compactionTriggerBytes);
  const showsBlobLimit = reached * BLOB_LIMIT_REACH >= limits.blobLimitBytes;
  const plot = createPlot({
    name: REQUEST_BYTES_CHART,
    title: TITLE,
    xDomain: [1, Math.max(2, maxTurn)],
    yDomain: [0, Math.max(reached, showsBlobLimit ? limits.blobLimitBytes : 0) * 1.08],
    xLabel: 'turn',
    yLabel: 'request bytes',
    xFormat: formatCount,
    yFormat: formatBytes,
  });
  const { drawn, omitted } = selectRuns(runs);
  if (omitted > 0) plot.add(bandPath(lines, plot));
  drawn.forEach((run, index) => {
    plot.add(seriesPath(requestLine(run), plot, seriesColor(index), run.runId));
  });
  const { marks, total } = compactionMarks(drawn);
  for (const { run, compaction } of marks) {
    const bytes = compaction.bytesBefore ?? requestBytesAt(run, compaction.turn) ?? limits.compactionTriggerBytes;
    const what = compaction.ok ? 'compacted' : `compaction failed${compaction.reason ? ` (${compaction.reason})` : ''}`;
    plot.add(
      dot(
        plot,
        { x: compaction.turn, y: bytes },
        {
          className: `compaction ${compaction.ok ? 'ok' : 'failed'}`,
          color: compaction.ok ? COLORS.ok : COLORS.failed,
          label: `${run.runId} turn ${compaction.turn}: ${what} at ${formatBytes(bytes)}`,
        },
      ),
    );
  }
  plot.add(
    referenceLine(plot, limits.compactionTriggerBytes, `compaction trigger ${formatBytes(limits.compactionTriggerBytes)}`, COLORS.trigger),
  );
  if (showsBlobLimit) {
    plot.add(referenceLine(plot, limits.blobLimitBytes, `blob limit ${formatBytes(limits.blobLimitBytes)}`, COLORS.ceiling));
  }

  const notes = [
    "Serialized request bytes of each turn's call_model input; dots are compactions (green: ok, red: failed).",
    showsBlobLimit
      ? ''
      : `The blob limit (${formatBytes(limits.blobLimitBytes)}) is far above this scenario's scaled-down requests and trigger, so the axis stops at them.`,
    omitted > 0
      ? `Showing ${drawn.length} of ${plural(runs.length, 'run')}: failing runs first, then the largest by peak request bytes; the grey band spans all ${plural(runs.length, 'run')} (lowest to highest).`
      : '',
    marks.length < total
      ? `Showing ${formatCount(marks.length)} of the ${formatCount(total)} compactions of the drawn runs, failed ones first.`
      : '',
    drawn.some((run) => run.turns.length > MAX_POINTS_PER_LINE)
      ? 'Long lines are thinned to the lowest and highest point of each slice.'
      : '',
  ];
  return {
    name: REQUEST_BYTES_CHART,
    title: TITLE,
    svg: plot.svg(),
    caption: notes.filter(Boolean).join(' '),
    legend: drawn.map((run, index) => ({ label: run.runId, color: seriesColor(index) })),
  };
}
