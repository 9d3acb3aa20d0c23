/**
 * The one error a scenario file can cause: a single line `file:line:col: field: problem`, so
 * that editors and CI logs link straight to the offending node.
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

export class ScenarioError extends Error {
  override readonly name = 'ScenarioError';

  constructor(
    message: string,
    readonly location?: ScenarioErrorLocation,
  ) {
    super(oneLine(message));
  }

  static at(location: ScenarioErrorLocation, problem: string): ScenarioError {
    const field = location.field ? `${location.field}: ` : '';
    return new ScenarioError(`${location.file}:${location.line}:${location.column}: ${field}${problem}`, location);
  }
}

/** Line breaks (including the Unicode ones) and other control characters escaped, so a message stays one line. */
export function oneLine(text: string): string {
  return text.replace(/[\p{Cc}\u2028\u2029]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
