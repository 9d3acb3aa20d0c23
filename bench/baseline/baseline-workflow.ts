/**
 * The bare baseline: the kernel's Temporal traffic without the kernel's decisions or the
 * harness. Each turn sends the whole conversation to `call_model`, runs the answer's tool calls
 * in parallel and journals the turn in the background, with the same activity types and
 * payloads as the kernel (the request is built by the kernel's own buildAgentRequest), so the
 * server stores the same bytes. No guard, no compaction, no ContinueAsNew: the overhead
 * benchmark only uses runs that never reach them. Sandboxed workflow code.
 */
import { proxyActivities } from '@temporalio/workflow';
import { ACTIVITY, GENESIS_HASH, type JournalType } from '../../src/contract/kernel-api.ts';
import type { Message } from '../../src/contract/messages.ts';
import { buildAgentRequest } from '../../src/kernel/context/request.ts';
import type { BaselineActivities, BaselineInput } from './baseline-types.ts';

const activities = proxyActivities<BaselineActivities>({ startToCloseTimeout: '2 minutes' });

export async function baselineRun(input: BaselineInput): Promise<number> {
  let messages: Message[] = [
    { role: 'system', content: input.systemPrompt },
    { role: 'user', content: input.userRequest },
  ];
  let seq = 0;
  let journal: Promise<unknown> = Promise.resolve();
  // Started at once, not chained: the kernel's append of turn N goes out in the same workflow
  // task as, and just before, the request of turn N+1; the order decides how completions
  // batch into workflow tasks, so the baseline keeps it.
  const append = (type: JournalType, turn: number, data: Record<string, unknown>) => {
    const event = { runId: input.runId, seq: ++seq, type, turn, data, prevHash: GENESIS_HASH };
    journal = Promise.all([journal, activities[ACTIVITY.journalAppend]({ events: [event] })]);
  };
  append('run.started', 0, { max_turns: input.maxTurns });
  let turn = 1;
  for (; turn <= input.maxTurns; turn++) {
    const request = buildAgentRequest({ runId: input.runId, turn, model: input.model, messages });
    const { message, usage } = await activities[ACTIVITY.callModel]({ runId: input.runId, turn, request });
    const calls = message.tool_calls ?? [];
    const results = await Promise.all(calls.map((call) => activities[ACTIVITY.runTool]({ runId: input.runId, turn, call })));
    messages = [...messages, message, ...results.map((r): Message => ({ role: 'tool', tool_call_id: r.tool_call_id, content: r.content }))];
    append('turn.completed', turn, { turn, usage: { ...usage }, tool_calls: calls.length });
    if (calls.length === 0) break;
  }
  const turns = Math.min(turn, input.maxTurns);
  append('run.completed', turns, { turns });
  await journal;
  return turns;
}
