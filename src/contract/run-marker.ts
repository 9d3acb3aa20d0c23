/**
 * The run marker: `[longrun-run:<runId>]`, which the plan writes at the end of a run's user
 * request (RunInput.userRequest). A foreign agent sends no longrun metadata, but it forwards
 * the user's prompt, so the mock model finds the run, and with it the run's plan, in the first
 * user message of every request, in any wire format, and needs no state to answer.
 * Workflow-safe: pure functions.
 */

/**
 * The header longrun's own workers send with every model and sandbox request: the binary whose
 * activities sent it. Runs of several binaries share a run id (and its plan); the header tells
 * the mocks' records apart. A foreign worker sends none, and its records go by the run id alone.
 */
export const BINARY_HEADER = 'x-longrun-binary';

const MARKER = /\[longrun-run:([^\]\s]+)\]/;
const MARKERS = new RegExp(MARKER.source, 'g');

/** The marker of a run; a run id holding whitespace or `]` cannot be marked. */
export function runMarker(runId: string): string {
  if (!/^[^\]\s]+$/.test(runId)) throw new Error(`runId: ${JSON.stringify(runId)} cannot be marked (no whitespace or "]")`);
  return `[longrun-run:${runId}]`;
}

/** The run id the text's first marker names, or null. */
export function readRunMarker(text: string): string | null {
  return MARKER.exec(text)?.[1] ?? null;
}

/**
 * The text with every marker blanked out, positions kept: a marker names the run, not the
 * task, so it is no identifier a compaction card must carry.
 */
export function blankRunMarkers(text: string): string {
  return text.replace(MARKERS, (marker) => ' '.repeat(marker.length));
}
