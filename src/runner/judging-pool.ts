/**
 * Judging a run (fetching, checking and replaying its histories) happens after the run frees its
 * slot, so the next run starts meanwhile. At most `parallel` runs are judged at once, and a run
 * keeps its slot until its judging starts, so finished but unjudged histories never pile up.
 */

/** Runs judged at once, beside the runs in flight (one per core of a small CI machine). */
export const JUDGED_AT_ONCE = 2;
/** Runs handed to judges elsewhere at once (src/distributed/): their queue, not this process, bounds the work. */
export const JUDGED_ELSEWHERE_AT_ONCE = 64;
export class JudgingPool {
  readonly #parallel: number;
  #running = 0;
  /** Submitted and not yet finished, waiting ones included. */
  #outstanding = 0;
  readonly #waiting: (() => void)[] = [];
  readonly #drained: (() => void)[] = [];
  #failure: { error: unknown } | undefined;

  constructor(parallel: number) {
    if (!(parallel >= 1)) throw new RangeError(`parallel must be at least 1, got ${parallel}`);
    this.#parallel = parallel;
  }

  /** Resolves once `judge` has started; rejects, so that no more runs start, once a judging has failed. */
  async submit(judge: () => Promise<void>): Promise<void> {
    this.#throwIfFailed();
    this.#outstanding++;
    // A finished judging hands its place straight to the first waiter, so `running` never overshoots.
    if (this.#running >= this.#parallel) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#running++;
    void Promise.resolve()
      .then(judge)
      .catch((error: unknown) => {
        this.#failure ??= { error };
      })
      .finally(() => {
        const next = this.#waiting.shift();
        if (next) next();
        else this.#running--;
        if (--this.#outstanding === 0) for (const resolve of this.#drained.splice(0)) resolve();
      });
  }

  /** Waits for every judging submitted; throws the first failure. */
  async drain(): Promise<void> {
    if (this.#outstanding > 0) await new Promise<void>((resolve) => this.#drained.push(resolve));
    this.#throwIfFailed();
  }

  #throwIfFailed(): void {
    if (this.#failure) throw this.#failure.error;
  }
}
