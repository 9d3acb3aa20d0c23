/**
 * One figure of a report, as `longrun compare` sets it beside the same figure of another: its
 * threshold key (src/scenario/compare-schema.ts) and the value in that key's unit.
 */
import type { CompareKey } from '../scenario/compare-schema.ts';

export interface Figure {
  /** Pairs it with the other report's: the key, or the key and what it is of (`invariant-fails:payload.ceiling`). */
  id: string;
  key: CompareKey;
  /** As the table shows it: "turns/s", "fails: payload.ceiling". */
  label: string;
  /** Undefined when this report did not measure it (a server not sampled, a slope with too few samples). */
  value: number | undefined;
}

export const MIB = 2 ** 20;

export function figure(key: CompareKey, label: string, value: number | undefined, of?: string): Figure {
  return { id: of === undefined ? key : `${key}:${of}`, key, label, value };
}
