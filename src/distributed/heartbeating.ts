/**
 * An activity's work with a heartbeat every second while it goes on, well inside the drive's
 * heartbeat timeout (10 s): when the process running it dies, the server hands the activity to
 * another worker of its queue within that timeout, not past its start-to-close one.
 */
import { Context } from '@temporalio/activity';

const HEARTBEAT_EVERY_MS = 1_000;

/** `work` run inside the current activity, heartbeating until it settles. */
export async function heartbeating<T>(work: (context: Context) => Promise<T> | T): Promise<T> {
  const context = Context.current();
  const beat = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
  try {
    return await work(context);
  } finally {
    clearInterval(beat);
  }
}
