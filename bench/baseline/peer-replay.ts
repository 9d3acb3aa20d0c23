/**
 * The peer's replay: what a team that wants its runs replay-checked writes by hand with the SDK
 * alone. One `Worker.runReplayHistories` on the kernel's v1 bundle (the binary longrun's own
 * runs replay on), with the options longrun's replayers use (`debugMode: false`), kept open and
 * fed history after history, so that, as in longrun, its start is paid once per process.
 */
import type { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { workflowBundle } from '../../src/kernel/workers/workflow-bundles.ts';

type History = temporal.api.history.v1.IHistory;

export interface PeerReplayer {
  /** Replays one history; resolves with its error line, or undefined when it replayed. */
  replay(workflowId: string, history: History): Promise<string | undefined>;
  close(): Promise<void>;
}

export function startPeerReplayer(): PeerReplayer {
  const queue: { workflowId: string; history: History }[] = [];
  const waiting: ((error: string | undefined) => void)[] = [];
  let wake: (() => void) | undefined;
  let closed = false;
  async function* feed() {
    for (;;) {
      const item = queue.shift();
      if (item) yield item;
      else if (closed) return;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  }
  const finished = (async () => {
    const options = { workflowBundle: await workflowBundle('v1'), debugMode: false };
    for await (const result of Worker.runReplayHistories(options, feed())) {
      waiting.shift()?.(result.error ? `${result.error.name}: ${result.error.message.split('\n')[0]}` : undefined);
    }
  })().catch((error: unknown) => {
    // The replay worker itself failed: every replay waiting on it says so.
    for (const resolve of waiting.splice(0)) resolve(`the replay worker failed: ${(error as Error).message}`);
  });
  return {
    replay(workflowId, history) {
      return new Promise((resolve) => {
        waiting.push(resolve);
        queue.push({ workflowId, history });
        wake?.();
      });
    },
    async close() {
      closed = true;
      wake?.();
      await finished;
    },
  };
}

/** A run's history fetched whole and replayed; throws when it does not replay (the peer's runs must). */
export async function fetchAndReplay(replayer: PeerReplayer, fetchHistory: () => Promise<History>, workflowId: string): Promise<void> {
  const error = await replayer.replay(workflowId, await fetchHistory());
  if (error) throw new Error(`peer: ${workflowId} did not replay: ${error}`);
}
