/** report.html: one self-contained page (inline CSS, JS and SVG; nothing fetched). */

import type { Summary } from '../result/index.ts';
import { renderCharts } from './charts/index.ts';
import { escapeText } from './escape.ts';
import { pageHead, SCRIPT } from './html-assets.ts';
import {
  chartsSection,
  earlyEndSection,
  expectationsSection,
  failuresSection,
  headerSection,
  invariantsSection,
  partialBanner,
  runsSection,
  totalsSection,
  unexplainedSection,
} from './html-sections.ts';

/** The report page of a summary. Pure: same summary, same bytes. */
export function renderHtml(summary: Summary): string {
  const verdict = summary.passed ? 'PASSED' : 'FAILED';
  return `${pageHead(`longrun ${summary.scenario}: ${verdict}`)}
<body>
${headerSection(summary)}
${partialBanner(summary)}
${earlyEndSection(summary)}
${totalsSection(summary)}
${expectationsSection(summary)}
${unexplainedSection(summary)}
${failuresSection(summary)}
${chartsSection(renderCharts(summary))}
${invariantsSection(summary)}
${runsSection(summary)}
<footer>longrun report of ${escapeText(summary.scenario)}, finished ${escapeText(summary.finishedAt)}. The data is in summary.json beside this page; CI reads junit.xml.</footer>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
