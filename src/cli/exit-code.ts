/**
 * What `longrun`'s exit status tells CI: 0 every expectation held, 1 one did not or a check
 * failed (a regression to look at), 2 longrun could not do its job (a usage error, an unknown
 * scenario, an invalid scenario file, a server it cannot reach, a worker that will not start, a
 * run its replayer could not replay or a mock replica it could not read: that run's report is
 * written all the same), so a harness
 * failure is never mistaken for a regression; 3 `compare` found a figure worse than the
 * baseline's by more than its threshold (apart from 1, so that a gate against last night is
 * never mistaken for tonight's own verdict); 130 (a shell's code for Ctrl-C) a
 * Ctrl-C or SIGTERM stopped it: during start-up, before any run (everything it started is
 * gone), or later, when its runs were stopped and a partial report written.
 */
export const EXIT = {
  passed: 0,
  regression: 1,
  harness: 2,
  baselineRegression: 3,
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** 0 when it held, 1 when it did not. */
export function verdictExit(held: boolean): ExitCode {
  return held ? EXIT.passed : EXIT.regression;
}
