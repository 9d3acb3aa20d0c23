/** A history that cannot be read: one line naming the source and what is wrong. */
export class HistoryLoadError extends Error {
  constructor(
    readonly source: string,
    problem: string,
  ) {
    super(`${source}: ${problem}`);
    this.name = 'HistoryLoadError';
  }
}
