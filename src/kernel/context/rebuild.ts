/**
 * The rebuild after compaction, a pure function of the history, the card and the limits:
 * system prompt and user request verbatim, the card as one framed system message, then the
 * tail: as many whole turn groups from the end as fit in `tailMaxBytes`, at least 2 and at
 * most 8.
 *
 * When the last two groups alone are over the byte cap, the kernel keeps them whole and
 * elides their biggest items (screenshots, tool outputs, then assistant texts, largest first)
 * rather than split a group: a split would break the API's tool-contiguity contract, while an
 * elided item leaves a placeholder that says what was there. Tool calls themselves are never
 * elided, so a tail whose tool-call arguments alone pass the cap stays over it.
 */
import type { KernelLimits } from '../../contract/kernel-api.ts';
import { TAIL_MAX_GROUPS, TAIL_MIN_GROUPS } from '../../contract/limits.ts';
import type { Message } from '../../contract/messages.ts';
import { jsonBytes } from './bytes.ts';
import { cardMessage } from './card.ts';
import { type ElidableItem, type ElidableKind, elideItems, largestFirst, listElidableItems, pickUntilFits } from './elision.ts';
import { splitTurnGroups } from './turn-groups.ts';

/** What may be elided inside a tail over the cap. */
const TAIL_ELIDABLE: ReadonlySet<ElidableKind> = new Set(['screenshot', 'tool_output', 'assistant_text']);

export interface Rebuilt {
  messages: Message[];
  /** Turn groups kept verbatim in the tail. */
  kept: number;
  /** Turn groups displaced into the card. */
  dropped: number;
  /** Serialized bytes of the tail (the messages after the card). */
  tailBytes: number;
  /** Items elided inside the tail to bring it under the cap. */
  elided: ElidableItem[];
}

export function rebuildMessages(history: readonly Message[], card: string, limits: Pick<KernelLimits, 'tailMaxBytes'>): Rebuilt {
  const { systemPrompt, userRequest, groups } = splitTurnGroups(history);
  const kept = tailGroupCount(groups, limits.tailMaxBytes);
  let tail = groups.slice(groups.length - kept).flat();
  let tailBytes = jsonBytes(tail);
  let elided: ElidableItem[] = [];
  if (tailBytes > limits.tailMaxBytes) {
    elided = pickUntilFits(largestFirst(listElidableItems(tail, TAIL_ELIDABLE)), tailBytes, limits.tailMaxBytes).picked;
    tail = elideItems(tail, elided);
    tailBytes = jsonBytes(tail);
  }
  return {
    messages: [systemPrompt, userRequest, cardMessage(card), ...tail],
    kept,
    dropped: groups.length - kept,
    tailBytes,
    elided,
  };
}

/** Whole groups from the end: the minimum whatever their size, then while the cap holds. */
function tailGroupCount(groups: readonly Message[][], tailMaxBytes: number): number {
  const most = Math.min(groups.length, TAIL_MAX_GROUPS);
  // A JSON array of n messages is 2 + sum(message) + (n - 1) commas = 1 + sum(message + 1).
  let bytes = 1;
  let count = 0;
  while (count < most) {
    const group = groups[groups.length - 1 - count] ?? [];
    const groupBytes = group.reduce((sum, message) => sum + jsonBytes(message) + 1, 0);
    if (count >= TAIL_MIN_GROUPS && bytes + groupBytes > tailMaxBytes) break;
    bytes += groupBytes;
    count++;
  }
  return count;
}
