/** Colours shared by the charts and the page (colour-blind safe where it matters: ok/failed). */

export const COLORS = {
  ok: '#1a9850',
  failed: '#d73027',
  trigger: '#e08214',
  ceiling: '#b2182b',
  budget: '#542788',
  band: '#9e9e9e',
  bar: '#4575b4',
} as const;

const SERIES = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];

/** The colour of the n-th drawn series (cycling). */
export function seriesColor(index: number): string {
  return SERIES[index % SERIES.length] ?? '#4e79a7';
}
