import { describe, expect, it } from 'vitest';
import type { MessageSummary } from '../history/model.ts';
import { contiguityViolations } from './contiguity.ts';

const system: MessageSummary = { role: 'system', bytes: 1, hash: 's' };
const asks = (...ids: string[]): MessageSummary => ({ role: 'assistant', bytes: 1, hash: ids.join(), toolCallIds: ids });
const answers = (id: string): MessageSummary => ({ role: 'tool', bytes: 1, hash: `t${id}`, toolCallId: id });

describe('tool contiguity', () => {
  it('holds for groups answered whole, in any order, and for assistant messages without tool calls', () => {
    expect(contiguityViolations([system, asks('a', 'b'), answers('b'), answers('a'), asks(), asks('c'), answers('c')])).toEqual([]);
  });

  it('names every tool message out of its group and every call left unanswered', () => {
    expect(contiguityViolations([system, answers('x'), asks('a', 'b'), answers('a'), answers('a'), system, answers('b')])).toEqual([
      'message 1 (tool x) follows no assistant message with tool calls',
      'message 4 (tool a) answers no open tool call of message 2',
      'message 2 (assistant): tool call b has no tool result after it',
      'message 6 (tool b) follows no assistant message with tool calls',
    ]);
    expect(contiguityViolations([asks('z')])).toEqual(['message 0 (assistant): tool call z has no tool result after it']);
  });
});
