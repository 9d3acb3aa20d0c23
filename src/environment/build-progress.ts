/**
 * Progress of a Go build: first the module download and the list of packages to compile
 * (`go list`), then `go build -v`, which names each package as it compiles it, and the link.
 * The estimate is the compile's rate so far: early packages (the standard library) are smaller than late
 * ones, so it is a floor that rises.
 */
export class BuildProgress {
  private stale: readonly string[] | undefined;
  /** When the compile began, in the build's elapsed time: the rate leaves the download out. */
  private compileFromMs = 0;
  private compiled = 0;
  private linking = false;

  /** The packages to compile (at most), dependencies first and the main package last (empty: unknown), known `elapsedMs` in. */
  planned(stale: readonly string[], elapsedMs: number): void {
    this.stale = stale;
    this.compileFromMs = elapsedMs;
  }

  /** A line of the build's stderr: a package's import path when one was compiled. */
  onLine(line: string): void {
    const name = line.trim();
    if (!name || name.includes(' ')) return;
    this.compiled++;
    if (name === this.stale?.at(-1)) this.linking = true;
  }

  /** "412 of 1754 packages compiled, 2 min 10 s in, about 4 min left". */
  describe(elapsedMs: number): string {
    const elapsed = `${duration(elapsedMs)} in`;
    if (!this.stale) return `downloading modules and listing packages, ${elapsed}`;
    const total = this.stale.length;
    if (this.linking) return `all ${total} packages compiled, linking, ${elapsed}`;
    if (total === 0) return `${this.compiled} packages compiled, ${elapsed}`;
    const done = Math.min(this.compiled, total);
    const counted = `${done} of ${total} packages compiled, ${elapsed}`;
    const compiling = elapsedMs - this.compileFromMs;
    return done === 0 ? counted : `${counted}, about ${duration((compiling / done) * (total - done))} left`;
  }
}

function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const rest = seconds % 60;
  return `${Math.floor(seconds / 60)} min${rest ? ` ${rest} s` : ''}`;
}
