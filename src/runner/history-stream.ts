/**
 * A run's histories read while it runs: each execution is long-polled for its new events, the
 * checks load them and the replay copy is kept as they come, and a ContinueAsNew is followed to
 * the next execution. When the run ends, its judging starts from what is already read instead
 * of fetching the whole chain (for a small run, most of the judging that nothing overlaps; for
 * a max-size run, seconds of decoding). Anything unexpected (an error, a server restart, a run
 * that does not close) ends the reading, and the judging fetches the chain as before. A stream
 * holds its run's reading for the run's whole life, so only a few runs at once are streamed
 * (`HistoryStreams`): the rest are fetched when judged, which the judging pool bounds.
 */
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { sleep } from '../shared/sleep.ts';
import {
  ExecutionReading,
  executionSize,
  type JudgedExecution,
  type JudgingFetchOptions,
  MAX_EXECUTIONS,
  pageEvents,
} from './history-chain.ts';
import { JUDGED_AT_ONCE } from './judging-pool.ts';

/**
 * Pause between polls once the reading has caught up: a poll returns at every new event (one
 * to three at a time), so a pause lets a few turns' events gather into one call.
 */
const CAUGHT_UP_PAUSE_MS = 200;
/**
 * Events asked for per poll at most: new events come a turn or two at a time, so this only bounds
 * a catch-up. A page is held whole while it is read, so a catch-up on a history of large events
 * asks for fewer (`pageEvents`, from the size the server last counted): 256 of a max-size run's
 * events are ~25 MB of history on average, and up to 2 MiB each.
 */
const POLL_EVENTS = 256;
/** How long the reading may take to reach the end of a run that has ended before it is given up. */
const FINISH_WITHIN_MS = 10_000;

/**
 * Runs streamed at once: as many as are judged at once. Each holds its reading for its run's
 * whole life: in an 80-run month at 6 runs at once, streaming all six took the worker's peak
 * to 907 MB, against 856 MB with two.
 */
export const STREAMED_AT_ONCE = JUDGED_AT_ONCE;

/** Opens a run's stream while fewer than `max` are open; a stream's slot frees when it is closed. */
export class HistoryStreams {
  #open = 0;

  constructor(private readonly max: number = STREAMED_AT_ONCE) {}

  /** A stream of the run's histories, or undefined when `max` are open (the judging fetches them). */
  open(client: Client, workflowId: string, firstRunId: string, options: JudgingFetchOptions): RunHistoryStream | undefined {
    if (this.#open >= this.max) return undefined;
    this.#open++;
    return new RunHistoryStream(client, workflowId, firstRunId, options, () => this.#open--);
  }
}

export class RunHistoryStream {
  private readonly stop = new AbortController();
  private readonly reading: Promise<JudgedExecution[] | undefined>;
  private ending = false;
  private readonly wake = new AbortController();
  private lastExecutionClosed: (() => void) | undefined;
  /** Resolves when the chain's last execution has closed, as read. Never rejects; may never resolve. */
  readonly closed: Promise<void>;

  constructor(
    private readonly client: Client,
    private readonly workflowId: string,
    firstRunId: string,
    private readonly options: JudgingFetchOptions,
    private onClose?: () => void,
  ) {
    this.closed = new Promise((resolve) => (this.lastExecutionClosed = resolve));
    this.reading = this.readChain(firstRunId).catch(() => undefined);
  }

  /**
   * The run's executions as read, once the run has ended (its last execution closed); undefined
   * when the reading failed or did not reach the end within 10 s: the caller fetches them.
   */
  async finish(): Promise<JudgedExecution[] | undefined> {
    this.ending = true;
    this.wake.abort();
    const timer = setTimeout(() => this.stop.abort(), FINISH_WITHIN_MS);
    try {
      return await this.reading;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Stops reading and lets go of what it read (once the run is judged, or will not be from it). */
  close(): void {
    this.stop.abort();
    this.onClose?.();
    this.onClose = undefined;
  }

  private async readChain(firstRunId: string): Promise<JudgedExecution[] | undefined> {
    const executions: JudgedExecution[] = [];
    let runId: string | undefined = firstRunId;
    while (runId && executions.length < MAX_EXECUTIONS) {
      const reading = new ExecutionReading(executions.length, this.options);
      if (!(await this.readExecution(runId, reading))) return undefined;
      const { bytes } = await this.call(() => executionSize(this.client, this.workflowId, runId as string));
      const { loaded, replayable } = reading.finish();
      executions.push({ temporalRunId: runId, loaded, replayable, bytes });
      runId = reading.continuedAs;
    }
    this.lastExecutionClosed?.();
    return executions;
  }

  /**
   * A call to the server that `close()` cancels, through a signal of its own: the SDK leaves a
   * listener on the signal a call is given, holding the call and its answer, and the stream's
   * own signal lives as long as the stream (listening on it took a max-size run's judging from
   * ~0.8 to ~1.07 GB of worker memory: every page it read, held).
   */
  private async call<T>(request: () => Promise<T>): Promise<T> {
    const cancel = new AbortController();
    const onStop = () => cancel.abort();
    this.stop.signal.addEventListener('abort', onStop, { once: true });
    try {
      return await this.client.withAbortSignal(cancel.signal, request);
    } finally {
      this.stop.signal.removeEventListener('abort', onStop);
    }
  }

  /** Reads the execution to its last event; false when stopped first. */
  private async readExecution(runId: string, reading: ExecutionReading): Promise<boolean> {
    let nextPageToken: Uint8Array | null | undefined;
    let pageSize = POLL_EVENTS;
    for (;;) {
      if (this.stop.signal.aborted) return false;
      const maximumPageSize = pageSize;
      const page = await this.call(() =>
        this.client.workflowService.getWorkflowExecutionHistory({
          namespace: this.client.options.namespace,
          execution: { workflowId: this.workflowId, runId },
          maximumPageSize,
          waitNewEvent: true,
          ...(nextPageToken ? { nextPageToken } : {}),
        }),
      );
      const events = page.history?.events ?? [];
      await this.options.readStored?.(events);
      reading.add(events);
      pageSize = pollEvents(events, pageSize);
      nextPageToken = page.nextPageToken;
      // With waitNewEvent the token is empty only once the execution has closed and every event is read.
      if (!nextPageToken || nextPageToken.length === 0) return true;
      if (events.length < POLL_EVENTS && !this.ending) await sleep(CAUGHT_UP_PAUSE_MS, this.wake.signal);
    }
  }
}

/** The next poll's size: from the history's size the server counted at the page's last workflow task, else as before. */
export function pollEvents(page: readonly temporal.api.history.v1.IHistoryEvent[], before: number): number {
  for (let i = page.length - 1; i >= 0; i--) {
    const event = page[i];
    const bytes = Number(event?.workflowTaskStartedEventAttributes?.historySizeBytes ?? 0);
    if (bytes > 0) return Math.min(POLL_EVENTS, pageEvents(bytes, Number(event?.eventId)));
  }
  return before;
}
