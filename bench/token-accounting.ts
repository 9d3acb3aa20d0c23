/**
 * Input tokens of a run, the way production counts them: every turn re-sends the request, so a
 * run costs the sum of its requests. Without compaction, computed from the plan alone (no run):
 * each turn's request is the system prompt, the user request and every earlier answer and tool
 * output, with the kernel's request framing. With compaction, from what the runs really sent.
 */
import type { temporal } from '@temporalio/proto';
import { type RunPlan, toolContentWireBytes } from '../mocks/index.ts';
import { ACTIVITY, type CompactContextInput } from '../src/contract/kernel-api.ts';
import { BYTES_PER_TOKEN } from '../src/contract/limits.ts';
import type { ChatRequest } from '../src/contract/messages.ts';
import { compactionPrompt } from '../src/kernel/activities/compaction-prompt.ts';
import { jsonBytes } from '../src/kernel/context/bytes.ts';
import { buildAgentRequest, buildDigest, overheadBytes } from '../src/kernel/index.ts';

/**
 * Request bytes an append-only kernel would send over the whole plan: no guard, no compaction.
 * Tool outputs are sized by toolContentWireBytes (exact for screenshots, text escaping
 * estimated within ~0.5%), so nothing is generated.
 */
export function appendOnlyRequestBytes(plan: RunPlan, model: string): number {
  let messagesBytes =
    2 + jsonBytes({ role: 'system', content: plan.systemPrompt }) + 1 + jsonBytes({ role: 'user', content: plan.userRequest });
  let total = 0;
  for (const turn of plan.turns) {
    total += overheadBytes(buildAgentRequest({ runId: plan.runId, turn: turn.turn, model, messages: [] })) + messagesBytes;
    messagesBytes += 1 + jsonBytes(turn.message);
    for (const call of turn.calls) {
      const empty = jsonBytes({ role: 'tool', tool_call_id: call.id, content: '' }) - 2;
      messagesBytes += 1 + empty + toolContentWireBytes(call.tool, call.args);
    }
  }
  return total;
}

export function tokensOf(bytes: number): number {
  return bytes / BYTES_PER_TOKEN;
}

/**
 * Request bytes of the compaction model calls a history holds, rebuilt as the
 * kernel.compact_context activity sends them (its prompt and the digest of its input).
 */
export function compactionRequestBytes(history: temporal.api.history.v1.IHistory, model: string): number {
  let total = 0;
  for (const event of history.events ?? []) {
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled?.activityType?.name !== ACTIVITY.compactContext) continue;
    const data = scheduled.input?.payloads?.[0]?.data;
    if (!data) continue;
    const input = JSON.parse(Buffer.from(data).toString('utf8')) as CompactContextInput;
    const request: ChatRequest = {
      model,
      messages: [
        { role: 'system', content: compactionPrompt(input.cardMaxBytes) },
        { role: 'user', content: buildDigest(input.messages) },
      ],
      metadata: { longrun_run_id: input.runId, longrun_turn: String(input.turn), longrun_purpose: 'compaction' },
    };
    total += jsonBytes(request);
  }
  return total;
}
