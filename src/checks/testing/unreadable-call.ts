import type { AgentRunHistory } from './agent-run-history.ts';
import type { JsonObject } from './history-builder.ts';

/** A payload a codec encrypted: the checks read none of it without the codec. */
const ENCRYPTED = { payloads: [{ metadata: { encoding: Buffer.from('binary/encrypted').toString('base64') }, data: 'AAAA' }] };

/** The run's histories with call_model number `call` (0-based) of `execution` (1-based) encrypted: an input the reader cannot read. */
export function withUnreadableCall(run: AgentRunHistory, call: number, execution = 1): { events: JsonObject[] }[] {
  const histories = structuredClone(run.histories());
  const scheduled = (histories[execution - 1]?.events ?? [])
    .map((event) => event.activityTaskScheduledEventAttributes as { activityType?: { name: string }; input?: unknown } | undefined)
    .filter((attributes) => attributes?.activityType?.name === 'call_model');
  const attributes = scheduled[call];
  if (!attributes) throw new Error(`no call_model ${call} in execution ${execution}`);
  attributes.input = ENCRYPTED;
  return histories;
}
