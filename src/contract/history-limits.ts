/**
 * The reasons Temporal's history service writes when it terminates an execution past one of its
 * history limits (go.temporal.io/server `common/util.go`), each named by the incident it is. The
 * checks and the runner's incident labels read them from here, so both tell them apart alike.
 * Workflow-safe: no imports.
 */
export const HISTORY_LIMIT_REASONS = {
  'history-size': 'Workflow history size exceeds limit.',
  'history-count': 'Workflow history count exceeds limit.',
} as const;

export type HistoryLimit = keyof typeof HISTORY_LIMIT_REASONS;

/** The history limit a termination reason names (in any case, with or without its full stop), or undefined. */
export function historyLimitOf(reason: string): HistoryLimit | undefined {
  const said = reason.toLowerCase();
  const entry = Object.entries(HISTORY_LIMIT_REASONS).find(([, text]) => said.includes(text.toLowerCase().replace(/\.$/, '')));
  return entry?.[0] as HistoryLimit | undefined;
}
