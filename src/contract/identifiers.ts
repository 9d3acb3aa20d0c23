/**
 * Identifiers a state card must carry verbatim (the checks require them, the mock compaction
 * model keeps them) (docs/spec/compaction.md: "paths, ids, hashes, numbers").
 * Extraction is deliberately conservative so that plain words never count:
 * - UUIDs;
 * - hex hashes of 7+ characters, one case, with at least one digit and one letter a-f;
 * - ids: a letter-led word joined by `-` or `_` that holds a digit (`run-123`, `call_4_2`);
 * - paths: slash-separated names that start with `/`, `./`, `../` or `~/`, or end in a file
 *   extension, or have at least two slashes;
 * - numbers with 4+ digits (a decimal part is kept).
 * Identifiers are returned once each, in order of first appearance; a match inside a longer one
 * (the number in `OPS-4821`) is part of it, not an identifier of its own. The run marker
 * (`[longrun-run:<runId>]`, see run-marker.ts) holds none.
 */
import { blankRunMarkers } from './run-marker.ts';

const PATTERNS: readonly RegExp[] = [
  /\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b/g,
  /\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b/g,
  /\b(?=[0-9A-F]*[0-9])(?=[0-9A-F]*[A-F])[0-9A-F]{7,}\b/g,
  /\b[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)+\b/g,
  /(?:~|\.{1,2})?\/?(?:[\w.-]+\/)+[\w.-]*\w/g,
  /(?<![\w.])\d{4,}(?:\.\d+)?(?![\w])/g,
];

const ID_PATTERN = PATTERNS[3];
const PATH_PATTERN = PATTERNS[4];

function accepted(pattern: RegExp, token: string): boolean {
  if (pattern === ID_PATTERN) return /\d/.test(token);
  if (pattern === PATH_PATTERN) {
    if (/^(?:\/|\.{1,2}\/|~\/)/.test(token)) return true;
    if (/\.[A-Za-z][A-Za-z0-9]{0,7}$/.test(token)) return true;
    return (token.match(/\//g) ?? []).length >= 2;
  }
  return true;
}

export function extractIdentifiers(text: string): string[] {
  const unmarked = blankRunMarkers(text);
  const found: { start: number; end: number; token: string }[] = [];
  for (const pattern of PATTERNS) {
    for (const match of unmarked.matchAll(pattern)) {
      const start = match.index ?? 0;
      if (accepted(pattern, match[0])) found.push({ start, end: start + match[0].length, token: match[0] });
    }
  }
  // Longest first at each position; a token inside another (4821 in OPS-4821) is not one of its own.
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: string[] = [];
  let coveredTo = -1;
  for (const { start, end, token } of found) {
    if (start < coveredTo && end <= coveredTo) continue;
    kept.push(token);
    coveredTo = Math.max(coveredTo, end);
  }
  return [...new Set(kept)];
}
