/**
 * The payload guard: before a request is scheduled, elide big items so that it stays under
 * the blob limit with a margin for the activity envelope.
 *
 * Pass 1 (every binary, v0 included): items above the big-item threshold, oldest first.
 * Pass 2 (only when `exhaustive`, the current binary): any remaining item, largest first.
 * v0 stops after pass 1 and sends whatever is left; the current binary reports `fits: false`
 * and the workflow ends the run rather than schedule an oversized activity.
 */
import type { Message } from '../../contract/messages.ts';
import { jsonBytes } from './bytes.ts';
import {
  type ElidableItem,
  type ElidableKind,
  elideItems,
  largestFirst,
  listElidableItems,
  pickUntilFits,
  screenshotJsonBytes,
} from './elision.ts';

export interface GuardPolicy {
  /** Pass 2 (largest first, any size) when pass 1 is not enough: the current binary. */
  exhaustive: boolean;
  /** false: a guard that neither counts nor elides screenshots (the Go kernel's fixtures try one); true unless it says. */
  countsScreenshots?: boolean;
  /** Assistant texts too: only for the compaction's input when the request itself cannot be brought under. */
  elidesAssistantText?: boolean;
}

export interface GuardInput {
  messages: readonly Message[];
  /** Bytes of the payload around the messages (the request with an empty message list, minus `[]`). */
  overheadBytes: number;
  targetBytes: number;
  bigItemBytes: number;
}

export interface GuardResult {
  messages: Message[];
  /** True serialized sizes (overhead included), whatever the policy counts. */
  bytesBefore: number;
  bytesAfter: number;
  elided: ElidableItem[];
  /** Whether the payload is at or under the target by the policy's own measure. */
  fits: boolean;
}

export function guardMessages(input: GuardInput, policy: GuardPolicy): GuardResult {
  const bytesBefore = input.overheadBytes + jsonBytes(input.messages);
  const countsScreenshots = policy.countsScreenshots ?? true;
  const blindBytes = countsScreenshots ? 0 : screenshotJsonBytes(input.messages);
  const measured = bytesBefore - blindBytes;
  if (measured <= input.targetBytes) {
    return {
      messages: [...input.messages],
      bytesBefore,
      bytesAfter: bytesBefore,
      elided: [],
      fits: true,
    };
  }
  const kinds = new Set<ElidableKind>(['tool_output']);
  if (countsScreenshots) kinds.add('screenshot');
  if (policy.elidesAssistantText) kinds.add('assistant_text');
  const items = listElidableItems(input.messages, kinds);
  const big = items.filter((item) => item.bytes > input.bigItemBytes);
  const firstPass = pickUntilFits(big, measured, input.targetBytes);
  let picked = firstPass.picked;
  let left = firstPass.measuredBytes;
  if (left > input.targetBytes && policy.exhaustive) {
    const rest = largestFirst(items.filter((item) => !picked.includes(item)));
    const secondPass = pickUntilFits(rest, left, input.targetBytes);
    picked = [...picked, ...secondPass.picked];
    left = secondPass.measuredBytes;
  }
  const messages = elideItems(input.messages, picked);
  const bytesAfter = input.overheadBytes + jsonBytes(messages);
  return {
    messages,
    bytesBefore,
    bytesAfter,
    elided: picked,
    fits: left <= input.targetBytes,
  };
}
