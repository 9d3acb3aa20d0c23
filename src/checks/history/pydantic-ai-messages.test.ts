import { describe, expect, it } from 'vitest';
import { isPydanticAiMessage, isPydanticAiMessages, pydanticAiAnswer, pydanticAiMessages } from './pydantic-ai-messages.ts';

// Shapes as Pydantic AI's Temporal integration writes them (examples/pydantic-ai-py/testdata), trimmed.
const INSTRUCTIONS = 'You are a helpful agent. Answer questions about the weather with your tools.';
const prompt = { content: 'What is the weather in Tokyo?', timestamp: '2026-12-03T19:44:23.827118Z', part_kind: 'user-prompt' };
const first = { parts: [prompt], instructions: INSTRUCTIONS, kind: 'request', metadata: null, state: 'complete' };
const call = (id: string, city: string) => ({
  tool_name: 'get_weather',
  args: JSON.stringify({ city }),
  tool_call_id: id,
  tool_kind: null,
  id: `fc_${id}`,
  provider_name: 'openai',
  part_kind: 'tool-call',
});
const response = (...parts: unknown[]) => ({ parts, model_name: 'gpt-5.6-sol', kind: 'response', finish_reason: 'stop' });
const weather = (id: string, city: string) => ({
  tool_name: 'get_weather',
  content: { city, temperature_range: '14-20C', conditions: 'Sunny with wind.' },
  tool_call_id: id,
  metadata: null,
  outcome: 'success',
  part_kind: 'tool-return',
});
const returns = (...parts: object[]) => ({ parts, instructions: INSTRUCTIONS, kind: 'request', metadata: null, state: 'complete' });

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe("Pydantic AI's messages told apart", () => {
  it('are a list of requests and responses, each with its parts', () => {
    expect(isPydanticAiMessages([first, response(call('c1', 'Tokyo')), returns(weather('c1', 'Tokyo'))])).toBe(true);
    expect(isPydanticAiMessages([])).toBe(false);
    expect(isPydanticAiMessages([first, { role: 'user', content: 'hi' }])).toBe(false);
    expect(isPydanticAiMessages([{ role: 'system', content: 'x' }, first])).toBe(false);
  });

  it('a message is one only as a request or a response that holds a list of parts', () => {
    expect(isPydanticAiMessage(first)).toBe(true);
    expect(isPydanticAiMessage(response())).toBe(true);
    for (const other of [
      { kind: 'request' },
      { kind: 'response', parts: 'text' },
      { kind: 'other', parts: [] },
      { role: 'user', parts: [] },
      null,
      'request',
      [first],
    ]) {
      expect(isPydanticAiMessage(other), JSON.stringify(other)).toBe(false);
    }
  });
});

describe("Pydantic AI's messages read as Chat messages", () => {
  it('reads the first request as its instructions and its prompt, responses and tool returns after it', () => {
    const history = [first, response({ content: 'Looking.', part_kind: 'text' }, call('c1', 'Tokyo')), returns(weather('c1', 'Tokyo'))];
    const read = pydanticAiMessages(history);
    expect(read.map((m) => m.message)).toEqual([
      { role: 'system', content: INSTRUCTIONS },
      { role: 'user', content: prompt.content },
      {
        role: 'assistant',
        content: 'Looking.',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Tokyo"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: JSON.stringify(weather('c1', 'Tokyo').content) },
    ]);
    // Instructions kept on every request are read once, from the first.
    expect(read.filter((m) => m.message.role === 'system')).toHaveLength(1);
  });

  it("shares each request's bytes out so that the messages' bytes and commas add up to the request's", () => {
    const request = returns(weather('c1', 'Tokyo'), weather('c2', 'Osaka'), weather('c3', 'Kyoto'));
    // Not the first request: its instructions are not read again.
    const read = pydanticAiMessages([first, request]).slice(2);
    expect(read).toHaveLength(3);
    expect(read.reduce((sum, m) => sum + m.bytes, 0) + read.length - 1).toBe(bytesOf(request));
    // The first takes what the others leave; the others are their parts' own bytes.
    expect(read.slice(1).map((m) => m.bytes)).toEqual([bytesOf(request.parts[1]), bytesOf(request.parts[2])]);
    const [instructions, user] = pydanticAiMessages([first]);
    expect(instructions?.bytes).toBe(bytesOf(first) - bytesOf(prompt) - 1);
    expect(user?.bytes).toBe(bytesOf(prompt));
    expect(pydanticAiMessages([response(call('c1', 'Tokyo'))])[0]?.bytes).toBe(bytesOf(response(call('c1', 'Tokyo'))));
  });

  it("gives a request's first message the request's bytes beyond the others', its instructions alone all of them", () => {
    const parts = [
      { part_kind: 'user-prompt', content: 'x'.repeat(50) },
      { part_kind: 'user-prompt', content: 'y'.repeat(50) },
    ];
    const request = { kind: 'request', parts };
    const read = pydanticAiMessages([request]);
    expect(read.map((m) => m.bytes)).toEqual([bytesOf(request) - bytesOf(parts[1]) - 1, bytesOf(parts[1])]);
    const [alone] = pydanticAiMessages([{ kind: 'request', parts: [] }].map((m) => ({ ...m, instructions: 'z'.repeat(10) })));
    expect(alone?.bytes).toBe(bytesOf({ kind: 'request', parts: [], instructions: 'z'.repeat(10) }));
    expect(alone?.source).toBe(`${JSON.stringify('z'.repeat(10))}#instructions`);
  });

  it('reads equal parts as equal messages: the source is the part, not the request around it', () => {
    const [, user] = pydanticAiMessages([first]);
    const [again] = pydanticAiMessages([first, { ...first, instructions: 'other', parts: [prompt] }]).slice(2);
    expect(user?.source).toBe(JSON.stringify(prompt));
    expect(again?.source).toBe(user?.source);
    const [answer] = pydanticAiMessages([response(call('c1', 'Tokyo'))]);
    expect(answer?.source).toBe(JSON.stringify(response(call('c1', 'Tokyo'))));
  });

  it('takes the instructions of the first request only, a response before it or not, and only a text', () => {
    const later = { ...first, instructions: 'Later instructions.' };
    const read = pydanticAiMessages([response({ content: 'Hello.', part_kind: 'text' }), first, later]);
    expect(read.map((m) => m.message.role)).toEqual(['assistant', 'system', 'user', 'user']);
    expect(pydanticAiMessages([{ ...first, instructions: null }]).map((m) => m.message.role)).toEqual(['user']);
    expect(pydanticAiMessages([{ ...first, instructions: { text: INSTRUCTIONS } }]).map((m) => m.message.role)).toEqual(['user']);
  });

  it('reads each part of a request: a system prompt, a tool retry as the tool, an output retry as the user, others named', () => {
    const parts = [
      { part_kind: 'system-prompt', content: 'Be brief.' },
      { part_kind: 'tool-return', tool_call_id: 'c1', content: 'plain text' },
      { part_kind: 'tool-return', content: ['a', 1] },
      { part_kind: 'retry-prompt', tool_name: 'get_weather', tool_call_id: 'c2', content: [{ msg: 'city is required' }] },
      { part_kind: 'retry-prompt', tool_name: 'get_weather', tool_call_id: 0, content: 'again' },
      { part_kind: 'retry-prompt', tool_call_id: 'c3', content: 'Output validation failed.' },
      { part_kind: 'retry-prompt', tool_name: 'get_weather', content: 'no call named' },
      { part_kind: 'audio', data: 'AAAA' },
      'not a part',
      null,
    ];
    const read = pydanticAiMessages([{ kind: 'request', parts }]).map((m) => m.message);
    expect(read).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'tool', tool_call_id: 'c1', content: 'plain text' },
      { role: 'tool', tool_call_id: '', content: '["a",1]' },
      { role: 'tool', tool_call_id: 'c2', content: '[{"msg":"city is required"}]' },
      { role: 'tool', tool_call_id: '0', content: 'again' },
      { role: 'user', content: 'Output validation failed.' },
      { role: 'user', content: 'no call named' },
      { role: 'part:audio', part: { part_kind: 'audio', data: 'AAAA' } },
    ]);
  });

  it('leaves out a request with nothing to read', () => {
    expect(
      pydanticAiMessages([
        { kind: 'request', parts: [] },
        { kind: 'request', parts: [null] },
      ]),
    ).toEqual([]);
  });
});

describe("a Pydantic AI response read as the model's answer", () => {
  it('joins its text parts by lines and holds its calls, built-in ones with their part', () => {
    const builtin = { part_kind: 'builtin-tool-call', tool_name: 'web_search', tool_call_id: 'ws1', args: { query: 'x' } };
    const answer = pydanticAiAnswer(
      response(
        { content: 'First.', part_kind: 'text' },
        { content: 'thinking...', part_kind: 'thinking' },
        call('c1', 'Tokyo'),
        { content: 'Second.', part_kind: 'text' },
        { content: 7, part_kind: 'text' },
        builtin,
        { part_kind: 'builtin-tool-return', tool_call_id: 'ws1', content: 'found' },
      ),
    );
    expect(answer).toEqual({
      role: 'assistant',
      content: 'First.\nSecond.',
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Tokyo"}' } },
        { id: 'ws1', type: 'builtin-tool-call', item: builtin },
      ],
    });
  });

  it('gives a call its arguments as JSON text whatever form they came in, and an id always', () => {
    const answer = pydanticAiAnswer(
      response(
        { part_kind: 'tool-call', tool_name: 'get_weather', args: { city: 'Tokyo' }, tool_call_id: 'c1' },
        { part_kind: 'tool-call', tool_name: 'get_time' },
        { part_kind: 'builtin-tool-call', tool_name: 'code' },
      ),
    );
    expect(answer).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Tokyo"}' } },
        { id: '', type: 'function', function: { name: 'get_time', arguments: '{}' } },
        { id: '', type: 'builtin-tool-call', item: { part_kind: 'builtin-tool-call', tool_name: 'code' } },
      ],
    });
  });

  it('has no content and no calls when it holds neither', () => {
    expect(pydanticAiAnswer(response({ content: 'thinking...', part_kind: 'thinking' }, null))).toStrictEqual({
      role: 'assistant',
      content: null,
    });
    expect(pydanticAiAnswer(response({ content: '', part_kind: 'text' }))).toStrictEqual({ role: 'assistant', content: null });
  });
});
