/** The page's inline style and script: the report must open from a file, offline, with nothing to fetch. */

/** Only inline styles and scripts, and nothing fetched: the page stays self-contained. */
import { escapeAttribute, escapeText } from './escape.ts';

export const CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

/** The start of a self-contained page, through its <head>: the policy that fetches nothing, and the style. */
export function pageHead(title: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(CONTENT_SECURITY_POLICY)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeText(title)}</title>
<style>${STYLE}</style>
</head>`;
}

export const STYLE = `
:root { --ok: #1a9850; --failed: #d73027; --warn: #e08214; --muted: #666; --line: #ddd; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #222; margin: 0 auto; max-width: 1100px; padding: 16px 24px 48px; }
h1 { font-size: 22px; margin: 8px 0 4px; }
h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 14px; margin: 14px 0 4px; }
.facts, .note, figcaption { color: var(--muted); }
.verdict { display: inline-block; padding: 1px 10px; border-radius: 4px; color: #fff; font-size: 15px; vertical-align: middle; }
.verdict.passed { background: var(--ok); }
.verdict.failed { background: var(--failed); }
.banner { background: #fff4e5; border: 1px solid var(--warn); border-radius: 4px; padding: 8px 12px; margin: 12px 0; }
dl.totals { display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr)); gap: 6px 16px; margin: 12px 0; }
dl.totals div { border-left: 3px solid var(--line); padding-left: 8px; }
dl.totals dt { color: var(--muted); font-size: 12px; }
dl.totals dd { margin: 0; font-size: 15px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #f6f6f6; }
td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
tr.failing td:first-child { border-left: 3px solid var(--failed); }
.met { color: var(--ok); font-weight: 600; }
.unmet, .fail { color: var(--failed); font-weight: 600; }
.pass { color: var(--ok); }
.na { color: var(--muted); }
ol.evidence { margin: 4px 0 12px; padding-left: 28px; }
ol.evidence li { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: pre-wrap; word-break: break-word; }
figure { margin: 16px 0 28px; }
figure svg { width: 100%; height: auto; max-width: 760px; display: block; }
ul.legend { list-style: none; padding: 0; margin: 6px 0; display: flex; flex-wrap: wrap; gap: 4px 14px; font-size: 12px; }
ul.legend span { display: inline-block; width: 12px; height: 3px; margin-right: 5px; vertical-align: middle; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
label.filter { font-size: 13px; color: var(--muted); }
footer { margin-top: 40px; color: var(--muted); font-size: 12px; }
`;

/** Filters the runs table to the failing runs. */
export const SCRIPT = `
(() => {
  const toggle = document.getElementById('only-failing');
  if (!toggle) return;
  toggle.addEventListener('change', () => {
    for (const row of document.querySelectorAll('#runs-table tbody tr')) {
      row.hidden = toggle.checked && row.dataset.failing !== 'true';
    }
  });
})();
`;
