import type { AgentRunHistory } from './agent-run-history.ts';
import type { JsonObject } from './history-builder.ts';
import { scheduledOf } from './storage-reference.ts';

/** A payload a codec encrypted: the checks read none of it without the codec. */
const ENCRYPTED = { payloads: [{ metadata: { encoding: Buffer.from('binary/encrypted').toString('base64') }, data: 'AAAA' }] };

/** The run's histories with call_model number `call` (0-based) of `execution` (1-based) encrypted: an input the reader cannot read. */
export function withUnreadableCall(run: AgentRunHistory, call: number, execution = 1): { events: JsonObject[] }[] {
  const histories = structuredClone(run.histories());
  const attributes = scheduledOf(histories[execution - 1] ?? { events: [] }, 'call_model')[call];
  if (!attributes) throw new Error(`no call_model ${call} in execution ${execution}`);
  attributes.input = ENCRYPTED;
  return histories;
}
