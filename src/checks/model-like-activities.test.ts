import { describe, expect, it } from 'vitest';
import { holdsConversation } from './model-like-activities.ts';

describe('holdsConversation', () => {
  it('finds Chat messages, Responses input items, and instructions beside an input, a few levels down', () => {
    expect(holdsConversation([{ request: { messages: [{ role: 'user', content: 'hi' }] } }])).toBe(true);
    expect(holdsConversation([{ input: [{ type: 'message', role: 'user', content: 'hi' }], model: 'gpt' }])).toBe(true);
    expect(holdsConversation([{ system_instructions: 'be brief', input: 'hi' }])).toBe(true);
    expect(holdsConversation([{ model_settings: {}, request: { instructions: 'be brief', input: 'hi' } }])).toBe(true);
  });

  it('leaves alone a tool call, a journal append and plain values', () => {
    expect(holdsConversation([{ call: { id: 'c1', name: 'get_weather' }, arguments: '{}' }])).toBe(false);
    expect(holdsConversation([{ events: [{ seq: 1, type: 'run.started' }] }])).toBe(false);
    expect(holdsConversation(['hello', 3, null])).toBe(false);
    expect(holdsConversation([{ messages: 'not a list' }])).toBe(false);
  });
});
