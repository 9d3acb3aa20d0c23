/**
 * What the replay workers hand core of the commands a workflow replays. Core matches a scheduled
 * activity to its history event by activity id and type only (replay-copy.ts leaves the inputs
 * out of the history for that reason), yet it keeps every command's input in its state machines
 * until the execution's replay ends: a max-size run's model requests, ~140 MB per execution, in
 * longrun's process. This codec empties each scheduled activity's input on its way to core, so
 * the replay judges the same commands without holding their bytes.
 */
import type { Payload, PayloadCodec, SerializationContext } from '@temporalio/common';

const EMPTY = new Uint8Array(0);

export const activityInputsLeftOut: PayloadCodec = {
  async encode(payloads: Payload[], context?: SerializationContext): Promise<Payload[]> {
    if (context?.type !== 'activity') return payloads;
    return payloads.map((payload) => ({ metadata: payload.metadata ?? {}, data: EMPTY }));
  },
  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads;
  },
};
