/** What each chart hands to the page. */
export interface Chart {
  /** The `data-chart` attribute of its SVG. */
  name: string;
  title: string;
  svg: string;
  /** Plain text under the chart: what is drawn, and what was left out. */
  caption: string;
  /** Drawn series and their colours, when there are several. */
  legend: { label: string; color: string }[];
}
