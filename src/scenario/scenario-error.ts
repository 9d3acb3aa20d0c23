/**
 * The one error a scenario file can cause: a line `file:line:col: field: problem` for each
 * problem in it, so that editors and CI logs link straight to every offending node at once.
 */
export interface ScenarioErrorLocation {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  /** The field path (`runs.concurrency`), empty for the file as a whole. */
  field: string;
}

export interface LocatedProblem {
  location: ScenarioErrorLocation;
  problem: string;
}

export class ScenarioError extends Error {
  override readonly name = 'ScenarioError';
  /** One line per problem, in file order; the message is these lines joined by newlines. */
  readonly lines: readonly string[];
  /** Where each line points (none for an error about no place in a file, like an unknown name). */
  readonly locations: readonly ScenarioErrorLocation[];

  constructor(lines: string | readonly string[], locations: ScenarioErrorLocation | readonly ScenarioErrorLocation[] = []) {
    const oneLines = (typeof lines === 'string' ? [lines] : lines).map(oneLine);
    super(oneLines.join('\n'));
    this.lines = oneLines;
    this.locations = 'file' in locations ? [locations] : locations;
  }

  /** The first problem's place. */
  get location(): ScenarioErrorLocation | undefined {
    return this.locations[0];
  }

  static at(location: ScenarioErrorLocation, problem: string): ScenarioError {
    return ScenarioError.atAll([{ location, problem }]);
  }

  /** One error for several problems of a file, each on its own line. */
  static atAll(problems: readonly LocatedProblem[]): ScenarioError {
    return new ScenarioError(
      problems.map(
        ({ location, problem }) =>
          `${location.file}:${location.line}:${location.column}: ${location.field ? `${location.field}: ` : ''}${problem}`,
      ),
      problems.map((p) => p.location),
    );
  }
}

/** Line breaks (including the Unicode ones) and other control characters escaped, so a message stays one line. */
export function oneLine(text: string): string {
  return text.replace(/[\p{Cc}\u2028\u2029]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
