/**
 * The reason longrun gives a run it terminates because longrun itself was stopped (Ctrl-C,
 * SIGTERM, SIGHUP): whatever the run's histories show after it is the stop's doing, so such a run
 * is reported as stopped, its checks not held against it.
 */
export const INTERRUPTED = 'longrun was interrupted';

/** Whether a termination's reason is longrun being stopped. */
export function stoppedByInterrupt(reason: string | undefined): boolean {
  return reason?.startsWith(INTERRUPTED) === true;
}
