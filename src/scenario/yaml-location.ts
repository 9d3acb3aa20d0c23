/**
 * Where a field path of the parsed value sits in the YAML text: the node it names, or, when the
 * path runs past what the file has (a missing key), the deepest node that exists.
 */
import { type Document, isAlias, isMap, isScalar, isSeq, type LineCounter, type Node } from 'yaml';

export type FieldPath = readonly PropertyKey[];

export interface FoundNode {
  node: Node | null;
  /** How many segments of the path the node covers (the whole path when found). */
  depth: number;
}

/** The value node at `path`, or the deepest existing node on the way to it. */
export function findNode(doc: Document, path: FieldPath): FoundNode {
  let node = resolve(doc, doc.contents);
  for (let depth = 0; depth < path.length; depth++) {
    const next = node ? childNode(doc, node, path[depth] as PropertyKey) : null;
    if (!next) return { node, depth };
    node = next.value;
  }
  return { node, depth: path.length };
}

/** The key node of `key` in the mapping at `path` (for an unknown key), else the mapping itself. */
export function findKeyNode(doc: Document, path: FieldPath, key: string): Node | null {
  const { node, depth } = findNode(doc, path);
  if (depth < path.length || !node) return node;
  return childNode(doc, node, key)?.key ?? node;
}

function childNode(doc: Document, node: Node, segment: PropertyKey): { key: Node | null; value: Node | null } | null {
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = pair.key as Node | null;
      if (keyText(key) === String(segment)) {
        return { key, value: resolve(doc, pair.value as Node | null) ?? key };
      }
    }
    return null;
  }
  if (isSeq(node) && typeof segment === 'number') {
    const item = resolve(doc, node.items[segment] as Node | null | undefined);
    return item ? { key: null, value: item } : null;
  }
  return null;
}

function keyText(key: Node | null): string | null {
  if (key === null) return '';
  return isScalar(key) ? String(key.value) : null;
}

/** Aliases point at their anchor's node, so a path through `*ref` still lands somewhere in the text. */
function resolve(doc: Document, node: Node | null | undefined): Node | null {
  if (!node) return null;
  if (!isAlias(node)) return node;
  return (node.resolve(doc) as Node | undefined) ?? node;
}

/** 1-based line and column of a text offset. */
export function positionOf(lineCounter: LineCounter, offset: number): { line: number; column: number } {
  const { line, col } = lineCounter.linePos(offset);
  return { line: Math.max(1, line), column: Math.max(1, col) };
}

/** The start offset of a node, 0 when there is none (an empty file). */
export function startOf(node: Node | null): number {
  return node?.range?.[0] ?? 0;
}
