import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../contract/journal-hash.ts';
import {
  chatRequestSummary,
  contentParts,
  ELIDED_ITEM_BYTES,
  MessageInterner,
  messageText,
  PLACEHOLDER_MAX_BYTES,
  sha256,
  stringContentParts,
  textPart,
} from './messages.ts';

const SCREENSHOT = `data:image/png;base64,${'iVBORw0KGgo'.repeat(40)}`;
const system = { role: 'system', content: 'You are a coding agent.' };
const user = { role: 'user', content: 'Fix OPS-1.' };
const assistant = {
  role: 'assistant',
  content: null,
  tool_calls: [
    { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } },
    { id: 'call_2', type: 'function', function: { name: 'screenshot', arguments: '{}' } },
  ],
};
const toolText = { role: 'tool', tool_call_id: 'call_1', content: 'export const a = 1;\n' };
const toolShot = {
  role: 'tool',
  tool_call_id: 'call_2',
  content: [
    { type: 'text', text: 'Screenshot of http://localhost:3000' },
    { type: 'image_url', image_url: { url: SCREENSHOT } },
  ],
};
const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
const hashOf = (value: unknown) => createHash('sha256').update(canonicalJson(value)).digest('hex');

describe('sha256', () => {
  it('hashes pieces one after another as the text they make', () => {
    expect(sha256('ab', Buffer.from('c'))).toBe(createHash('sha256').update('abc').digest('hex'));
    expect(sha256()).toBe(createHash('sha256').digest('hex'));
  });
});

describe('a message summarized', () => {
  it('names its role, bytes and canonical hash, whatever the key order', () => {
    const summary = new MessageInterner().summarize(user);
    expect(summary).toStrictEqual({ role: 'user', bytes: bytesOf(user), hash: hashOf(user), text: 'Fix OPS-1.' });
    expect(new MessageInterner().summarize({ content: 'Fix OPS-1.', role: 'user' }).hash).toBe(summary.hash);
    expect(new MessageInterner().summarize(system).text).toBe(system.content);
  });

  it("holds an assistant message's call ids and tool names, empty where a call names none", () => {
    const summary = new MessageInterner().summarize({
      ...assistant,
      tool_calls: [...assistant.tool_calls, 'junk', { id: 7 }, { id: 'c', function: {} }],
    });
    expect(summary.toolCallIds).toEqual(['call_1', 'call_2', '', '7', 'c']);
    expect(summary.toolCallNames).toEqual(['read_file', 'screenshot', '', '', '']);
    expect(summary.parts).toBeUndefined();
    expect(summary.text).toBeUndefined();
    expect(new MessageInterner().summarize({ role: 'assistant', content: 'Done.' })).toMatchObject({
      parts: [{ kind: 'text', bytes: 5, text: 'Done.' }],
    });
    expect(new MessageInterner().summarize({ role: 'assistant', content: 'Done.' }).toolCallIds).toBeUndefined();
  });

  it("holds a tool message's call, parts, screenshots and the least its output elided could weigh", () => {
    const shot = new MessageInterner().summarize(toolShot);
    const bare = bytesOf({ ...toolShot, content: '' });
    expect(shot).toEqual({
      role: 'tool',
      bytes: bytesOf(toolShot),
      hash: hashOf(toolShot),
      toolCallId: 'call_2',
      parts: [
        { kind: 'text', bytes: 35, text: 'Screenshot of http://localhost:3000' },
        { kind: 'screenshot', bytes: SCREENSHOT.length },
      ],
      screenshots: 1,
      elidedBytes: bare + 2 * ELIDED_ITEM_BYTES,
    });
    // A small output weighs less than its placeholders would: never more than the message itself.
    const text = new MessageInterner().summarize(toolText);
    expect(text).toMatchObject({ screenshots: 0, parts: [{ kind: 'text', bytes: 20 }], elidedBytes: bytesOf(toolText) });
    const empty = { role: 'tool', tool_call_id: 'call_3', content: [] };
    expect(new MessageInterner().summarize(empty)).toMatchObject({ parts: [], screenshots: 0, elidedBytes: bytesOf(empty) });
    // Content of no known shape: no parts, nothing to elide.
    const odd = new MessageInterner().summarize({ role: 'tool', tool_call_id: 'call_4', content: { text: 'x' } });
    expect(odd).toEqual({ role: 'tool', bytes: expect.any(Number), hash: expect.any(String), toolCallId: 'call_4' });
  });

  it('takes the parts the caller read when the message leaves its content out', () => {
    const parts = [
      { kind: 'text' as const, bytes: 5000 },
      { kind: 'screenshot' as const, bytes: 90_000 },
    ];
    const summary = new MessageInterner().summarizeHashed({ role: 'tool', tool_call_id: 'call_2' }, 'h1', 95_200, parts);
    expect(summary).toMatchObject({ parts, screenshots: 1, toolCallId: 'call_2' });
    expect(summary.elidedBytes).toBe(bytesOf({ role: 'tool', tool_call_id: 'call_2', content: '' }) + 2 * ELIDED_ITEM_BYTES);
  });

  it('reads a message that is no object, or has no role, as of role unknown', () => {
    expect(new MessageInterner().summarizeHashed('text', 'h', 6)).toEqual({ role: 'unknown', bytes: 6, hash: 'h' });
    expect(new MessageInterner().summarizeHashed({ role: 3, content: 'x' }, 'h', 20)).toEqual({ role: 'unknown', bytes: 20, hash: 'h' });
    expect(new MessageInterner().summarizeHashed({ role: 'developer', content: 'x' }, 'h', 20).text).toBeUndefined();
    expect(new MessageInterner().summarizeHashed({ role: 'user', content: [{ type: 'text', text: 'x' }] }, 'h', 20).text).toBeUndefined();
  });
});

describe('messages interned', () => {
  it('give one summary per message however often it is re-sent, found by its JSON or its hash', () => {
    const interner = new MessageInterner();
    const first = interner.summarizeAll([system, user, assistant, toolText]);
    const again = interner.summarizeAll([system, user, assistant, toolText, toolShot]);
    for (const [i, summary] of first.entries()) expect(again[i]).toBe(summary);
    expect(interner.summarize({ content: user.content, role: 'user' })).toBe(first[1]);
    expect(interner.summarizeHashed({}, hashOf(user), 1)).toBe(first[1]);
    expect(interner.summarizeHashed({ role: 'user' }, 'another', 1)).not.toBe(first[1]);
  });

  it('keep a Responses item apart from a Chat message of the same JSON: they read as different messages', () => {
    const item = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix OPS-1.' }] };
    const asItem = new MessageInterner().summarizeRequest({ model: 'gpt-5', input: [item] }).messages[0];
    const interner = new MessageInterner();
    const asMessage = interner.summarize(item);
    expect(interner.summarizeRequest({ model: 'gpt-5', messages: [item] }).messages[0]).toBe(asMessage);
    expect(interner.summarizeRequest({ model: 'gpt-5', input: [item] }).messages[0]).toEqual(asItem);
    expect(asItem?.hash).not.toBe(asMessage.hash);
    // The same for answers: one message as it is, or output items read into one.
    const output = { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] };
    const fromItems = new MessageInterner().summarizeAnswer([output]);
    const answers = new MessageInterner();
    const asAnswer = answers.summarize(output);
    expect(answers.summarizeAnswer(output)).toBe(asAnswer);
    expect(answers.summarizeAnswer([output])).toEqual(fromItems);
    expect(fromItems.hash).not.toBe(asAnswer.hash);
  });

  it('take the JSON the caller has for the bytes', () => {
    const json = JSON.stringify(user, null, 2);
    expect(new MessageInterner().summarize(user, json).bytes).toBe(Buffer.byteLength(json));
  });

  it('refuse a list that is no list, or a message without a role, naming it', () => {
    const interner = new MessageInterner();
    expect(() => interner.summarizeAll({ 0: user })).toThrow('messages is not an array');
    expect(() => interner.summarizeAll([user, { content: 'x' }])).toThrow('messages[1] has no role');
    expect(() => interner.summarizeAll([null])).toThrow('messages[0] has no role');
    expect(() => interner.summarizeAll([user, { role: 1 }])).toThrow('messages[1] has no role');
  });
});

describe('a request summarized', () => {
  it('measures a Chat request and its messages, each interned by its JSON', () => {
    const interner = new MessageInterner();
    const request = { model: 'gpt-5', messages: [system, user, assistant, toolShot] };
    const summary = interner.summarizeRequest(request);
    expect(summary.format).toBe('chat-completions');
    expect(summary.bytes).toBe(bytesOf(request));
    expect(summary.messagesBytes).toBe(bytesOf(request.messages));
    expect(summary.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(interner.summarize(user)).toBe(summary.messages[1]);
    expect(chatRequestSummary(request, summary.messages)).toEqual(summary);
  });

  it("reads a Responses request's items apart from Chat messages of the same JSON", () => {
    const interner = new MessageInterner();
    const request = { model: 'gpt-5', instructions: 'Be brief.', input: [{ role: 'user', content: 'Fix OPS-1.' }] };
    const summary = interner.summarizeRequest(request);
    expect(summary.format).toBe('responses-items');
    expect(summary.bytes).toBe(bytesOf(request));
    expect(summary.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(summary.messagesBytes).toBe(2 + summary.messages.reduce((sum, m) => sum + m.bytes, 0) + 1);
  });

  it("reads the model's answer: a Chat message as it is, Responses output items as one assistant message", () => {
    const interner = new MessageInterner();
    const chat = interner.summarizeAnswer(assistant);
    expect(chat).toMatchObject({ role: 'assistant', bytes: bytesOf(assistant), toolCallIds: ['call_1', 'call_2'] });
    expect(interner.summarize(assistant)).toBe(chat);
    const items = [
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Reading.' }] },
      { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{}' },
    ];
    const answer = interner.summarizeAnswer(items);
    expect(answer).toMatchObject({ role: 'assistant', toolCallIds: ['call_1'], toolCallNames: ['read_file'] });
    expect(interner.summarizeAnswer(items)).toBe(answer);
  });
});

describe('the parts of a message', () => {
  it('keep a text short enough to be a placeholder, and only its size past that', () => {
    const at = 'é'.repeat(PLACEHOLDER_MAX_BYTES / 2);
    expect(textPart(at)).toEqual({ kind: 'text', bytes: PLACEHOLDER_MAX_BYTES, text: at });
    expect(textPart(`${at}x`)).toEqual({ kind: 'text', bytes: PLACEHOLDER_MAX_BYTES + 1 });
    expect(textPart('')).toEqual({ kind: 'text', bytes: 0, text: '' });
  });

  it("read a content list's texts, screenshots and other parts", () => {
    expect(
      contentParts([
        { type: 'text', text: '[elided: screenshot, 1,234 bytes]' },
        { type: 'image_url', image_url: { url: SCREENSHOT } },
        { type: 'image_url', image_url: 'not an object' },
        { type: 'image_url' },
        { type: 'text', text: 5 },
        { type: 'input_audio', input_audio: {} },
        { type: 'input_text', text: 'a Responses part' },
        'text',
        null,
      ]),
    ).toEqual([
      { kind: 'text', bytes: 33, text: '[elided: screenshot, 1,234 bytes]' },
      { kind: 'screenshot', bytes: SCREENSHOT.length },
      { kind: 'screenshot' },
      { kind: 'screenshot' },
      { kind: 'other' },
      { kind: 'other' },
      { kind: 'other' },
      { kind: 'other' },
      { kind: 'other' },
    ]);
    expect(contentParts('plain')).toEqual([{ kind: 'text', bytes: 5, text: 'plain' }]);
    expect(contentParts(null)).toBeUndefined();
    expect(contentParts({ type: 'text', text: 'x' })).toBeUndefined();
  });

  it("read a tool's string content from its raw JSON, decoding it only when it may be a placeholder", () => {
    const short = '[elided: tool output, 48,213 bytes]';
    expect(stringContentParts(Buffer.from(JSON.stringify(short)))).toEqual([textPart(short)]);
    const at = `"${'\\n'.repeat(PLACEHOLDER_MAX_BYTES)}"`;
    expect(stringContentParts(Buffer.from(at))).toEqual([
      { kind: 'text', bytes: PLACEHOLDER_MAX_BYTES, text: '\n'.repeat(PLACEHOLDER_MAX_BYTES) },
    ]);
    const long = 'Привет, '.repeat(30);
    expect(stringContentParts(Buffer.from(JSON.stringify(long)))).toEqual([{ kind: 'text', bytes: Buffer.byteLength(long) }]);
    expect(stringContentParts(Buffer.from('{"a":1}'))).toStrictEqual([{ kind: 'text' }]);
  });

  it("give a message's text: its string content, or its text parts by lines; screenshots are none", () => {
    expect(messageText(user)).toBe('Fix OPS-1.');
    expect(messageText(toolShot)).toBe('Screenshot of http://localhost:3000');
    expect(
      messageText({
        role: 'user',
        content: [{ type: 'text', text: 'one' }, { type: 'image_url' }, null, { type: 'text', text: 2 }, { type: 'text', text: 'two' }],
      }),
    ).toBe('one\ntwo');
    expect(messageText({ role: 'assistant', content: null })).toBe('');
    expect(messageText({ role: 'assistant', content: { text: 'x' } })).toBe('');
    expect(messageText('text')).toBe('');
    expect(messageText(null)).toBe('');
    expect(messageText({ role: 'user', content: [{ type: 'input_text', text: 'a Responses part' }] })).toBe('');
  });
});
