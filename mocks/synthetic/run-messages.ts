/**
 * The messages a run builds when nothing is compacted: what a kernel would send on the turn
 * after the last one, plus the final answer. Materializes every tool output.
 */
import type { Message } from '../../src/contract/messages.ts';
import type { RunPlan } from './plan-run.ts';
import { toolOutput } from './tool-output.ts';

export function runMessages(plan: RunPlan): Message[] {
  const messages: Message[] = [
    { role: 'system', content: plan.systemPrompt },
    { role: 'user', content: plan.userRequest },
  ];
  for (const turn of plan.turns) {
    messages.push(turn.message);
    for (const call of turn.calls) {
      messages.push({
        role: 'tool',
        tool_call_id: call.id,
        content: toolOutput(call.tool, call.args),
      });
    }
  }
  return messages;
}

/** The JSON-serialized size of a list of messages: what a run's context weighs. */
export function contextBytes(messages: readonly Message[]): number {
  return Buffer.byteLength(JSON.stringify(messages));
}
