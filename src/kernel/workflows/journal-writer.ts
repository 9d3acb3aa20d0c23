/**
 * The run's journal from the workflow's side. Appends run in the background, one event per
 * `journal.append` activity and strictly one after the other, because each event names the hash
 * of the one before and only the activity computes hashes. `drain()` waits for all of them:
 * the clean boundary before ContinueAsNew and before the run returns.
 */
import type { JournalAppendInput, JournalAppendResult, JournalHead, JournalType } from '../../contract/kernel-api.ts';

export type AppendActivity = (input: JournalAppendInput) => Promise<JournalAppendResult>;

export class JournalWriter {
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  private written: JournalHead;

  constructor(
    private readonly runId: string,
    head: JournalHead,
    private readonly appendActivity: AppendActivity,
  ) {
    this.written = head;
  }

  /** The head as far as appends have completed; stale while appends are pending. */
  get head(): JournalHead {
    return this.written;
  }

  append(type: JournalType, turn: number, data: Record<string, unknown>): void {
    this.chain = this.chain.then(async () => {
      if (this.failure !== null) return;
      const event = {
        runId: this.runId,
        seq: this.written.nextSeq,
        type,
        turn,
        data,
        prevHash: this.written.headHash,
      };
      try {
        const { hashes } = await this.appendActivity({ events: [event] });
        const hash = hashes[0];
        if (hash === undefined) throw new Error(`journal.append returned no hash for event ${event.seq}`);
        this.written = { nextSeq: event.seq + 1, headHash: hash };
      } catch (error) {
        this.failure = error;
      }
    });
  }

  /** Rethrows the first failed append without waiting for the pending ones. */
  throwIfFailed(): void {
    if (this.failure !== null) throw this.failure;
  }

  /** Waits for every pending append; rethrows the first failure. */
  async drain(): Promise<JournalHead> {
    await this.chain;
    if (this.failure !== null) throw this.failure;
    return this.written;
  }
}
