/**
 * A chat agent's conversation through the real openai client: the mock model shares the plan's
 * turns among the user's messages and ends each share with a final answer, which is when the
 * agent hands the turn back to the user. It knows which message it answers from the request
 * alone (how many user messages it holds), so two requests alike get one answer.
 */
import type OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startInProcessMocks } from './server/in-process.ts';
import { conversationMessage, messageEndTurns } from './synthetic/conversation.ts';
import { openAIClient } from './testing/client-players.ts';
import { GET_WEATHER } from './testing/framework-schemas.ts';

const RUN = 'chat-run-0001';
const MESSAGES = 3;

let close: (() => void) | undefined;
afterEach(() => {
  close?.();
  close = undefined;
});

describe('a conversation of several user messages (conversationMessages)', () => {
  it("answers each message's share of the plan's turns, the last turn of each a final answer", async () => {
    const mocks = startInProcessMocks({ seed: 21, shape: { overrides: { turns: 8 } }, conversationMessages: MESSAGES });
    close = () => mocks.close();
    const plan = mocks.planFor(RUN);
    const client = openAIClient({ modelBaseUrl: mocks.modelBaseUrl });
    const tools: OpenAI.ChatCompletionFunctionTool[] = [{ type: 'function', function: GET_WEATHER }];
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'system', content: 'You are a weather desk.' }];
    const finalTurns: number[] = [];
    let turn = 0;
    for (let index = 0; index < MESSAGES; index++) {
      messages.push({ role: 'user', content: conversationMessage(plan, index) });
      for (;;) {
        turn++;
        const answer = (await client.chat.completions.create({ model: 'agent-model', messages, tools })).choices[0]?.message;
        if (!answer) throw new Error('no answer');
        messages.push(answer);
        if (!answer.tool_calls?.length) break;
        for (const call of answer.tool_calls) messages.push({ role: 'tool', tool_call_id: call.id, content: 'Sunny, 21°C' });
      }
      finalTurns.push(turn);
    }
    expect(finalTurns).toEqual(messageEndTurns(plan.turns.length, MESSAGES));
    expect(mocks.recorder.records().every((r) => r.status === 200 && r.runId === RUN)).toBe(true);
  });

  it('with one message (the default) plays the plan to its end, a final answer only at its last turn', async () => {
    const mocks = startInProcessMocks({ seed: 21, shape: { overrides: { turns: 8 } } });
    close = () => mocks.close();
    const plan = mocks.planFor(RUN);
    const client = openAIClient({ modelBaseUrl: mocks.modelBaseUrl });
    const tools: OpenAI.ChatCompletionFunctionTool[] = [{ type: 'function', function: GET_WEATHER }];
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: plan.userRequest }];
    let turns = 0;
    for (;;) {
      turns++;
      const answer = (await client.chat.completions.create({ model: 'agent-model', messages, tools })).choices[0]?.message;
      if (!answer?.tool_calls?.length) break;
      messages.push(answer);
      for (const call of answer.tool_calls) messages.push({ role: 'tool', tool_call_id: call.id, content: 'Sunny, 21°C' });
    }
    expect(turns).toBe(plan.turns.length);
  });
});
