/**
 * One neutral conversation out of either wire format: a Chat Completions request is its own
 * neutral form, byte for byte; the Agents SDK's items and the Responses API's own spelling read
 * into the same Chat messages, each keeping the bytes of the items it came from.
 */
import { describe, expect, it } from 'vitest';
import { checkRun } from '../index.ts';
import { AgentsSdkHistory } from '../testing/agents-sdk-history.ts';
import { answerOf, conversationOf } from './conversation.ts';
import { MessageInterner } from './messages.ts';

const call = (id: string) => ({ id, type: 'function', function: { name: 'shell', arguments: '{"command":"ls"}' } });
const CHAT = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Fix OPS-1.' },
  { role: 'assistant', content: 'Looking.', tool_calls: [call('call_1')] },
  { role: 'tool', tool_call_id: 'call_1', content: 'a.ts' },
];

const SDK_ITEMS = [
  { type: 'message', role: 'user', content: 'Fix OPS-1.' },
  {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    content: [{ type: 'output_text', text: 'Looking.', providerData: {} }],
    status: 'completed',
  },
  { type: 'function_call', id: 'fc_1', callId: 'call_1', name: 'shell', status: 'completed', arguments: '{"command":"ls"}' },
  { type: 'function_call_result', name: 'shell', callId: 'call_1', status: 'completed', output: { type: 'text', text: 'a.ts' } },
];

const RESPONSES_ITEMS = [
  { role: 'user', content: [{ type: 'input_text', text: 'Fix OPS-1.' }] },
  { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Looking.', annotations: [] }] },
  { type: 'function_call', call_id: 'call_1', name: 'shell', arguments: '{"command":"ls"}' },
  { type: 'function_call_output', call_id: 'call_1', output: 'a.ts' },
];

const ANTHROPIC = {
  model: 'agent',
  max_tokens: 8192,
  system: 'Be brief.',
  messages: [
    { role: 'user', content: 'Fix OPS-1.' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Looking.' },
        { type: 'tool_use', id: 'call_1', name: 'shell', input: { command: 'ls' } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: [{ type: 'text', text: 'a.ts' }] }] },
  ],
};

describe('conversationOf', () => {
  it('reads a Chat Completions request as it is, its bytes those of its JSON', () => {
    const request = { model: 'agent', messages: CHAT, metadata: { longrun_turn: '2' } };
    const conversation = conversationOf(request);
    expect(conversation.format).toBe('chat-completions');
    expect(conversation.messages.map((m) => m.message)).toEqual(CHAT);
    expect(conversation.requestBytes).toBe(Buffer.byteLength(JSON.stringify(request)));
  });

  it("reads the Agents SDK's items and the Responses API's spelling into the same Chat messages", () => {
    const sdk = conversationOf({ systemInstructions: 'Be brief.', input: SDK_ITEMS, tools: [] });
    const responses = conversationOf({ model: 'agent', instructions: 'Be brief.', input: RESPONSES_ITEMS });
    expect(sdk.format).toBe('responses-items');
    expect(sdk.messages.map((m) => m.message)).toEqual(CHAT);
    expect(responses.messages.map((m) => m.message)).toEqual(CHAT);
  });

  it("keeps each item's bytes as it travels: the model's message and call are one message of both items' bytes", () => {
    const request = { systemInstructions: 'Be brief.', input: SDK_ITEMS };
    const conversation = conversationOf(request);
    expect(conversation.requestBytes).toBe(Buffer.byteLength(JSON.stringify(request)));
    const [, user, assistant, tool] = conversation.messages.map((m) => m.bytes);
    const itemBytes = SDK_ITEMS.map((item) => Buffer.byteLength(JSON.stringify(item)));
    expect([user, assistant, tool]).toEqual([itemBytes[0], (itemBytes[1] ?? 0) + (itemBytes[2] ?? 0) + 1, itemBytes[3]]);
    const summary = new MessageInterner().summarizeRequest(request);
    // The items' array exactly, plus the instructions as the system message (and its comma).
    expect(summary.messagesBytes).toBe(Buffer.byteLength(JSON.stringify(SDK_ITEMS)) + Buffer.byteLength(JSON.stringify('Be brief.')) + 1);
  });

  it('reads a string input as the user message, screenshots as image parts, and any other item under its type', () => {
    expect(conversationOf({ instructions: 'Be brief.', input: 'Fix OPS-1.' }).messages.map((m) => m.message)).toEqual(CHAT.slice(0, 2));
    const screenshot = {
      type: 'function_call_result',
      callId: 'call_2',
      output: [
        { type: 'input_text', text: 'Screenshot: 80x50 PNG' },
        { type: 'input_image', image: 'data:image/png;base64,iVBO' },
      ],
    };
    const search = { type: 'web_search_call', id: 'ws_1', status: 'completed' };
    const handoff = { type: 'handoff_output', callId: 'call_3' };
    const [tool, searched, other] = conversationOf({ input: [screenshot, search, handoff] }).messages.map((m) => m.message);
    expect(tool).toEqual({
      role: 'tool',
      tool_call_id: 'call_2',
      content: [
        { type: 'text', text: 'Screenshot: 80x50 PNG' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBO' } },
      ],
    });
    expect(searched).toEqual({ role: 'assistant', content: null, tool_calls: [{ id: 'ws_1', type: 'web_search_call', item: search }] });
    expect(other).toEqual({ role: 'item:handoff_output', item: handoff });
  });

  it("reads Anthropic's Messages form into the same Chat messages: system apart, tool_use calls, tool_result blocks as tool messages", () => {
    const conversation = conversationOf(ANTHROPIC);
    expect(conversation.format).toBe('anthropic-messages');
    expect(conversation.messages.map((m) => m.message)).toEqual(CHAT);
    expect(conversation.requestBytes).toBe(Buffer.byteLength(JSON.stringify(ANTHROPIC)));
    // The messages' bytes are the list's and the system's, each message's own shared out among what it became.
    const summary = new MessageInterner().summarizeRequest(ANTHROPIC);
    expect(summary.messagesBytes).toBe(
      Buffer.byteLength(JSON.stringify(ANTHROPIC.messages)) + Buffer.byteLength(JSON.stringify('Be brief.')) + 1,
    );
    // A user message of tool results and text: one tool message per result, then the text.
    const mixed = { role: 'user', content: [ANTHROPIC.messages[2]?.content[0], { type: 'text', text: 'And now?' }] };
    const read = conversationOf({ system: 's', messages: [mixed] }).messages.map((m) => m.message);
    expect(read.slice(1)).toEqual([CHAT[3], { role: 'user', content: 'And now?' }]);
    // An answer as the API returns it is the assistant message the next request holds.
    const interner = new MessageInterner();
    const answer = interner.summarizeAnswer({ id: 'msg_1', type: 'message', stop_reason: 'tool_use', ...ANTHROPIC.messages[1] });
    expect(interner.summarizeRequest(ANTHROPIC).messages[2]).toBe(answer);
    expect(answer.bytes).toBe(Buffer.byteLength(JSON.stringify(ANTHROPIC.messages[1])));
  });

  it('refuses what is neither form in one line', () => {
    expect(() => conversationOf({ model: 'agent' })).toThrow(/^messages is not an array \(and no Responses input\)$/);
    expect(() => conversationOf({ input: 42 })).toThrow(/^input is neither a string nor a list of items$/);
    expect(() => conversationOf({ input: ['text'] })).toThrow(/^input\[0\] is not an object$/);
    expect(() => answerOf([{ type: 'message', role: 'user', content: 'hi' }])).toThrow(/^the answer is not the model's output items$/);
  });

  it('reads a Responses output as the assistant message the next request holds: equal summaries', () => {
    const interner = new MessageInterner();
    const answer = interner.summarizeAnswer(SDK_ITEMS.slice(1, 3));
    const next = interner.summarizeRequest({ systemInstructions: 'Be brief.', input: SDK_ITEMS });
    expect(next.messages[2]).toBe(answer);
    expect(answer).toMatchObject({ role: 'assistant', toolCallIds: ['call_1'] });
  });
});

describe('an Agents SDK history', () => {
  const verdictOf = (history: AgentsSdkHistory) => checkRun([history.loaded()]);
  const resultOf = (history: AgentsSdkHistory, id: string) => verdictOf(history).results.find((r) => r.id === id);

  it.each(['agents-sdk', 'responses'] as const)(
    'in the %s spelling: requests read, rebuild.contract holds every turn to the dialog as it stood, compaction not applicable',
    (spelling) => {
      const history = new AgentsSdkHistory({ spelling }).play(6).complete();
      const verdict = verdictOf(history);
      expect(verdict.status).toBe('pass');
      expect(resultOf(history, 'rebuild.contract')?.status).toBe('pass');
      expect(resultOf(history, 'rebuild.contract')?.evidence).toEqual([
        '7 requests checked for tool contiguity; 0 rebuilds',
        '7 requests read from Responses API items into Chat messages; append-only between turns',
        '6 turns held to the dialog as it stood (append-only; no compaction to rebuild after)',
      ]);
      expect(resultOf(history, 'compaction.trigger')).toMatchObject({
        status: 'not-applicable',
        evidence: ['the mapping names no compaction activity: the workflow has no compaction to trigger'],
      });
      // Request bytes are read: the budget's note counts them (no longer 0, no unreadable inputs).
      expect(resultOf(history, 'history.continue-as-new')?.evidence[0]).toMatch(
        /^execution 1: [1-9][\d,]* request bytes, under the budget/,
      );
    },
  );

  it('fails rebuild.contract when a request leaves out a tool result the dialog had', () => {
    const result = resultOf(new AgentsSdkHistory({ dropToolResultAt: 4 }).play(6).complete(), 'rebuild.contract');
    expect(result?.status).toBe('fail');
    expect(result?.evidence).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^event \d+ \(turn #4 of execution 1\): message 6 \(assistant\): tool call call_0003 has no tool result after it$/,
        ),
        expect.stringMatching(/^event \d+ \(turn #4 of execution 1\): .*: 7 messages where the dialog has 8$/),
      ]),
    );
  });

  it('fails rebuild.contract when a tool result comes before its call', () => {
    const result = resultOf(new AgentsSdkHistory({ resultBeforeCallAt: 3 }).play(5).complete(), 'rebuild.contract');
    expect(result?.status).toBe('fail');
    expect(result?.evidence.join('\n')).toMatch(/call_0002/);
  });
});

describe('the forms at their edges', () => {
  it('refuses a request, a message or an answer it cannot read, each in one line', () => {
    expect(() => conversationOf('text')).toThrow(/^request is not an object$/);
    expect(() => conversationOf({ messages: [CHAT[0], { content: 'no role' }] })).toThrow(/^messages\[1\] has no role$/);
    expect(() => conversationOf({ messages: ['text'] })).toThrow(/^messages\[0\] has no role$/);
    // A messages list beside an input: the messages are read, and the input is not.
    expect(conversationOf({ messages: CHAT, input: 'ignored' }).format).toBe('chat-completions');
    expect(() => answerOf({ role: 'user', content: 'hi' })).toThrow(/^the answer is not an assistant message$/);
    expect(() => answerOf('hi')).toThrow(/^the answer is not an assistant message$/);
    for (const items of [[], [{ type: 'reasoning' }, 'text'], [{ type: 'reasoning' }, { type: 'function_call_output', call_id: 'c' }]]) {
      expect(() => answerOf(items)).toThrow(/^the answer is not the model's output items$/);
    }
  });

  it("reads Pydantic AI's messages as their own format, a request's and an answer's", () => {
    const request = { kind: 'request', parts: [{ part_kind: 'user-prompt', content: 'Fix OPS-1.' }] };
    const response = { kind: 'response', parts: [{ part_kind: 'text', content: 'Done.' }] };
    const conversation = conversationOf({ messages: [request, response] });
    expect(conversation.format).toBe('pydantic-ai-messages');
    expect(conversation.requestBytes).toBe(Buffer.byteLength(JSON.stringify({ messages: [request, response] })));
    expect(conversation.messages.map((m) => m.message.role)).toEqual(['user', 'assistant']);
    const answer = answerOf(response);
    expect(answer.message).toEqual({ role: 'assistant', content: 'Done.' });
    expect(answer.bytes).toBe(Buffer.byteLength(JSON.stringify(response)));
    // A Pydantic AI request is no answer.
    expect(() => answerOf(request)).toThrow(/^the answer is not an assistant message$/);
  });

  it('keeps a Chat answer as it is, blocks or not, unless it is an Anthropic response', () => {
    const chat = { role: 'assistant', content: 'Looking.', tool_calls: [call('call_1')] };
    expect(answerOf(chat)).toEqual({ message: chat, bytes: Buffer.byteLength(JSON.stringify(chat)), source: JSON.stringify(chat) });
    // An Anthropic message without a tool call or thinking block is already a Chat message.
    const plain = { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Done.' }] };
    expect(answerOf(plain).message).toBe(plain);
    const thinking = {
      ...plain,
      content: [
        { type: 'thinking', thinking: 'hm' },
        { type: 'text', text: 'Done.' },
      ],
    };
    expect(answerOf(thinking).message).toEqual({ role: 'assistant', content: 'Done.' });
    const redacted = { ...plain, content: [{ type: 'redacted_thinking', data: 'x' }] };
    expect(answerOf(redacted).message).toEqual({ role: 'assistant', content: null });
    // A string's content is its text; a text of no characters is no content.
    const said = { type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'n', input: {} }, 'loose'] };
    expect(answerOf(said).message).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 't', type: 'function', function: { name: 'n', arguments: '{}' } }],
    });
  });

  it("reads an answer of Anthropic's blocks without the API's `type: 'message'` as the next request holds it", () => {
    // A framework may record the message it sends back (role and content) rather than the API's response.
    const held = {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Looking.' },
        { type: 'tool_use', id: 't', name: 'n', input: {} },
      ],
    };
    const answer = answerOf(held);
    expect(answer.message).toEqual({
      role: 'assistant',
      content: 'Looking.',
      tool_calls: [{ id: 't', type: 'function', function: { name: 'n', arguments: '{}' } }],
    });
    expect(answer.message).toEqual(conversationOf({ messages: [held] }).messages[0]?.message);
    expect(answer.bytes).toBe(Buffer.byteLength(JSON.stringify(held)));
  });

  it("reads Anthropic's form from its blocks alone, a user's tool results without other blocks, and its images", () => {
    const results = {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'call_1' },
        { type: 'tool_result', tool_use_id: 'call_2', content: 'b.ts' },
      ],
    };
    const request = { messages: [{ role: 'user', content: 'Fix.' }, results] };
    const conversation = conversationOf(request);
    expect(conversation.format).toBe('anthropic-messages');
    expect(conversation.messages.map((m) => m.message)).toEqual([
      { role: 'user', content: 'Fix.' },
      { role: 'tool', tool_call_id: 'call_1', content: '' },
      { role: 'tool', tool_call_id: 'call_2', content: 'b.ts' },
    ]);
    const resultsSource = JSON.stringify(results);
    expect(conversation.messages.map((m) => m.source)).toEqual([
      JSON.stringify({ role: 'user', content: 'Fix.' }),
      `${resultsSource}#call_1`,
      `${resultsSource}#call_2`,
    ]);
    // The message's bytes shared out: the first result takes the rest of the message's, so their sum (with a comma) is its own.
    const [, first, second] = conversation.messages;
    expect(second?.bytes).toBe(Buffer.byteLength(JSON.stringify(results.content[1])));
    expect((first?.bytes ?? 0) + (second?.bytes ?? 0) + 1).toBe(Buffer.byteLength(resultsSource));
    // A thinking block alone makes the form Anthropic's; so does a redacted one, and a tool result alone.
    for (const block of [
      { type: 'thinking', thinking: 'hm' },
      { type: 'redacted_thinking', data: 'x' },
    ]) {
      expect(conversationOf({ messages: [{ role: 'assistant', content: [block] }] }).format).toBe('anthropic-messages');
    }
    expect(conversationOf({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] }).format).toBe('chat-completions');
    expect(conversationOf({ messages: [{ role: 'user', content: ['text', { type: 'text', text: 'hi' }] }] }).format).toBe(
      'chat-completions',
    );
    // Images: base64 as a data URL, a URL as it is, beside a tool result.
    const images = {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'call_3',
          content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } }],
        },
        { type: 'image', source: { type: 'url', url: 'https://example.test/a.png' } },
        'loose',
      ],
    };
    expect(conversationOf({ messages: [images] }).messages.map((m) => m.message)).toEqual([
      { role: 'tool', tool_call_id: 'call_3', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBOR' } }] },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.test/a.png' } }] },
    ]);
    // A system given apart is a system message even when the messages hold no block.
    expect(conversationOf({ system: [{ type: 'text', text: 'Be brief.' }], messages: [CHAT[1]] }).messages[0]?.message).toEqual({
      role: 'system',
      content: 'Be brief.',
    });
  });

  it("reads the items' roles, reasoning, refusals, texts and images into Chat messages", () => {
    const items = [
      { role: 'developer', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Look: ' },
          { type: 'input_image', image_url: 'data:image/png;base64,AA' },
        ],
      },
      { type: 'reasoning', id: 'rs_1', summary: [] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'One.' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: 'no', text: 'Two.' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text' }] },
      { role: 'user', content: { type: 'image', image: { url: 'https://example.test/b.png' } } },
      { type: 'message', role: 'user', content: 7 },
    ];
    const conversation = conversationOf({ input: items });
    expect(conversation.format).toBe('responses-items');
    expect(conversation.messages.map((m) => m.message)).toEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look: ' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AA' } },
        ],
      },
      { role: 'assistant', content: 'One.\nTwo.' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.test/b.png' } }] },
      { role: 'user', content: 7 },
    ]);
    // The model's run of items is one message: its items' bytes and the commas between them.
    const run = items.slice(2, 6).map((item) => JSON.stringify(item));
    expect(conversation.messages[2]?.source).toBe(run.join(','));
    expect(conversation.messages[2]?.bytes).toBe(Buffer.byteLength(run.join(',')));
    // Reasoning alone is an assistant message without text or calls.
    expect(answerOf([{ type: 'reasoning', id: 'rs_1' }]).message).toEqual({ role: 'assistant', content: null });
    // An item with a role but another type is no message item.
    expect(conversationOf({ input: [{ type: 'custom', role: 'user' }] }).messages[0]?.message).toEqual({
      role: 'item:custom',
      item: { type: 'custom', role: 'user' },
    });
    expect(conversationOf({ input: [{ type: 'message' }] }).messages[0]?.message).toEqual({
      role: 'item:message',
      item: { type: 'message' },
    });
  });
});

describe('the parts of a message', () => {
  it("read texts, other parts and missing content as the forms write them (each a survivor's rule)", () => {
    expect(conversationOf({ input: 'Fix OPS-1.' }).format).toBe('responses-items');
    expect(() => answerOf([{ type: 'reasoning' }, null])).toThrow(/^the answer is not the model's output items$/);
    expect(() => answerOf([{}])).toThrow(/^the answer is not the model's output items$/);
    const items = [
      { content: 'no type, no role' },
      { type: 'function_call_output', output: 'x' },
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Look ' },
          { type: 'input_text', text: 'here.' },
        ],
      },
      { role: 'user', content: [{ type: 'input_text', text: 'a' }, { type: 'reasoning_text', text: 'b' }, null] },
      { type: 'reasoning', content: 'a thought is no text' },
      { type: 'message', role: 'assistant', content: 'Plain.' },
      { type: 'message', role: 'assistant' },
      { role: 'user', content: [{ type: 'input_file', file_id: 'f' }] },
    ];
    expect(conversationOf({ input: items }).messages.map((m) => m.message)).toEqual([
      { role: 'item:undefined', item: items[0] },
      { role: 'tool', tool_call_id: '', content: 'x' },
      { role: 'user', content: 'Look here.' },
      { role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'reasoning_text', text: 'b' }, null] },
      { role: 'assistant', content: 'Plain.' },
      { role: 'user', content: [{ type: 'input_file', file_id: 'f' }] },
    ]);
  });

  it("reads Anthropic's empty user message, an assistant's string and null blocks, and a document block as it is", () => {
    const empty = { role: 'user', content: [] };
    const [read] = conversationOf({ system: 's', messages: [empty] }).messages.slice(1);
    expect(read?.message).toEqual({ role: 'user', content: '' });
    expect(read?.source).toBe(`${JSON.stringify(empty)}#rest`);
    expect(read?.bytes).toBe(Buffer.byteLength(JSON.stringify(empty)));
    expect(conversationOf({ system: 's', messages: [{ role: 'assistant', content: 'Hi.' }] }).messages[1]?.message).toEqual({
      role: 'assistant',
      content: 'Hi.',
    });
    const use = { type: 'tool_use', id: 't', name: 'n', input: {} };
    expect(answerOf({ type: 'message', role: 'assistant', content: [use, null] }).message).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 't', type: 'function', function: { name: 'n', arguments: '{}' } }],
    });
    const document = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBER' } };
    expect(conversationOf({ system: 's', messages: [{ role: 'user', content: [document] }] }).messages[1]?.message).toEqual({
      role: 'user',
      content: [document],
    });
  });
});
