/**
 * Non-ASCII content: the checks measure UTF-8 bytes themselves (Buffer.byteLength of the JSON
 * the payload carries), and read lone surrogates without crashing, whatever the kernel counts.
 */
import { defaultPayloadConverter } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { journalHash } from '../../contract/journal-hash.ts';
import type { JournalEvent } from '../../contract/kernel-api.ts';
import { DEFAULT_KERNEL_MAPPING } from '../mapping.ts';
import { AgentRunHistory } from '../testing/agent-run-history.ts';
import { jsonTextPayloads } from '../testing/payload-bytes.ts';
import { MessageInterner } from './messages.ts';
import { decodePayload, decodePayloads, payloadSize } from './payloads.ts';
import { activityRole, ContractReader } from './summarize.ts';

const MULTIBYTE = 'Заказ ord_7Gk2Qx9 оплачен: 1\u202f250,00 ₽ 💳 注文 Zoe\u0308 \ud83d';
const LONE_LOW = '\udcce\udcf2\udcf7\udcb8\udcf2.txt';

describe('message and request sizes', () => {
  it('are UTF-8 bytes of the JSON, not UTF-16 code units', () => {
    const message = { role: 'tool', tool_call_id: 'call_1', content: `${MULTIBYTE}\n${LONE_LOW}` };
    const json = JSON.stringify(message);
    const summary = new MessageInterner().summarize(message);
    expect(summary.bytes).toBe(Buffer.byteLength(json));
    expect(summary.bytes).toBeGreaterThan(json.length);

    const request = { model: 'agent', messages: [{ role: 'user', content: MULTIBYTE }, message], metadata: { longrun_turn: '3' } };
    const requestJson = JSON.stringify(request);
    expect(new MessageInterner().summarizeRequest(request).bytes).toBe(Buffer.byteLength(requestJson));
  });

  it('match what Temporal JSON payload converter stores: lone surrogates travel as escapes and come back intact', () => {
    const request = { model: 'agent', messages: [{ role: 'tool', tool_call_id: 'call_1', content: `${MULTIBYTE} ${LONE_LOW}` }] };
    const payload = defaultPayloadConverter.toPayload(request);
    const data = Buffer.from(payload.data ?? new Uint8Array());
    expect(data.length).toBe(Buffer.byteLength(JSON.stringify(request)));
    expect(data.toString('utf8')).toContain('\\ud83d');
    expect(data.toString('utf8')).toContain('\\udcce');
    expect(decodePayload(payload)).toEqual(request);
    expect(new MessageInterner().summarizeRequest(decodePayload(payload)).bytes).toBe(data.length);
    expect(payloadSize(payload)).toBeGreaterThan(data.length);
  });
});

describe('the identifiers of tool outputs sent to compaction', () => {
  /** The identifiers the checks take from one tool output sent to compaction. */
  const recentOf = (content: string): string[] => {
    const input = new ContractReader(DEFAULT_KERNEL_MAPPING).activityInput('compact-context', [
      { messages: [{ role: 'tool', tool_call_id: 'call_1', content }] },
    ]);
    return input.kind === 'compact-context' ? (input.recentToolIdentifiers[0] ?? []) : [];
  };

  it('are read from Cyrillic, CJK and lone-surrogate text', () => {
    const recent = recentOf(`${MULTIBYTE} в src/orders/оплата-service.ts и PAY-4821 ${LONE_LOW} req_9fK2aa1`);
    expect(recent).toEqual(expect.arrayContaining(['ord_7Gk2Qx9', 'PAY-4821', 'req_9fK2aa1']));
  });

  it('are those of the head and tail the digest shows, cut in bytes, never in UTF-16 units', () => {
    // 1,023 bytes in 617 units, then 'Ж' straddles the 1,024-byte head edge right after an id.
    const head = `ord_7Gk2Qx9 ${'Ж '.repeat(300)}${'x '.repeat(50)}ord_edge777Ж`;
    expect(Buffer.byteLength(head.slice(0, -1))).toBe(1023);
    // A cut at 1,024 units would take next_id_99 into the head: the digest never shows it.
    const text = `${head} next_id_99 ${'middle '.repeat(400)} ${'y '.repeat(600)}tail_id_42`;
    const recent = recentOf(text);
    expect(recent).toContain('ord_7Gk2Qx9');
    expect(recent).toContain('tail_id_42');
    expect(recent).not.toContain('ord_edge777');
    expect(recent).not.toContain('next_id_99');
  });
});

const reader = (): ContractReader => new ContractReader(DEFAULT_KERNEL_MAPPING);

describe('the role of an activity', () => {
  it('is told by the mapping activity type, anything else is other', () => {
    const role = (type: string) => activityRole(DEFAULT_KERNEL_MAPPING, type);
    expect(role('call_model')).toBe('call-model');
    expect(role('kernel.compact_context')).toBe('compact-context');
    expect(role('run_tool')).toBe('run-tool');
    expect(role('journal.append')).toBe('journal-append');
    expect(role('send_email')).toBe('other');
  });
});

describe('a RunInput', () => {
  // As our kernel's workflow starts: the run's input, no limits given.
  const INPUT = new AgentRunHistory({ runId: 'run-7f3a' }).input;
  const RESUME = {
    messages: [
      { role: 'system', content: INPUT.systemPrompt },
      { role: 'user', content: INPUT.userRequest },
    ],
    counters: { turns: 40, totalRequestBytes: 9_000_000, compactions: 2, compactionFailures: 0, executions: 1 },
    journal: { nextSeq: 81, headHash: 'ab'.repeat(32) },
  };

  it('is summarized field by field, its problem read, no resume on a first execution', () => {
    const summary = reader().runInput([{ ...INPUT, limits: { compactionTriggerBytes: 400_000 } }]);
    expect(summary).toEqual({
      runId: 'run-7f3a',
      systemPrompt: INPUT.systemPrompt,
      userRequest: INPUT.userRequest,
      maxTurns: 500,
      limits: { compactionTriggerBytes: 400_000 },
      fixedHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      problem: null,
    });
    expect(reader().runInput([{ ...INPUT, maxTurns: 0 }]).problem).toBe('maxTurns is not a positive integer');
    const nullResume = reader().runInput([{ ...INPUT, resume: null }]);
    expect(nullResume).not.toHaveProperty('resume');
    expect(nullResume.fixedHash).toBe(reader().runInput([INPUT]).fixedHash);
  });

  it('reads a missing maxTurns as 0 and limits that are not an object as none', () => {
    const { maxTurns: _, ...bare } = INPUT;
    expect(reader().runInput([bare])).toMatchObject({ maxTurns: 0, limits: {} });
    expect(reader().runInput([{ ...INPUT, maxTurns: '120', limits: 'big' }])).toMatchObject({ maxTurns: 0, limits: {} });
  });

  it('hashes everything but resume: the same across a ContinueAsNew, another when a fixed field changes', () => {
    const first = reader().runInput([INPUT]);
    const next = reader().runInput([{ ...INPUT, resume: RESUME }]);
    expect(next.fixedHash).toBe(first.fixedHash);
    expect(reader().runInput([{ ...INPUT, maxTurns: 121 }]).fixedHash).not.toBe(first.fixedHash);
    expect(reader().runInput([{ ...INPUT, settings: { agent: { model: 'other' } } }]).fixedHash).not.toBe(first.fixedHash);
  });

  it('carries its resume: the messages summarized, the counters and the journal head', () => {
    const interner = new MessageInterner();
    const { resume } = reader().runInput([{ ...INPUT, resume: RESUME }]);
    expect(resume).toEqual({
      messages: RESUME.messages.map((m) => interner.summarize(m)),
      counters: RESUME.counters,
      journal: RESUME.journal,
    });
  });

  it.each([
    ['no input', [], 'nothing at [0]'],
    ['an input that is not an object', ['run-7f3a'], 'RunInput is not an object'],
    ['a runId that is not a string', [{ ...INPUT, runId: 7 }], 'RunInput.runId is not a string'],
    ['no systemPrompt', [{ ...INPUT, systemPrompt: undefined }], 'RunInput.systemPrompt is not a string'],
    ['no userRequest', [{ ...INPUT, userRequest: null }], 'RunInput.userRequest is not a string'],
    ['a resume that is not an object', [{ ...INPUT, resume: 'r' }], 'RunInput.resume lacks counters or journal'],
    ['a resume without counters', [{ ...INPUT, resume: { ...RESUME, counters: undefined } }], 'RunInput.resume lacks counters or journal'],
    ['a resume without journal', [{ ...INPUT, resume: { ...RESUME, journal: 3 } }], 'RunInput.resume lacks counters or journal'],
    ['resume messages without a role', [{ ...INPUT, resume: { ...RESUME, messages: [{ content: 'x' }] } }], 'messages[0] has no role'],
  ])('is refused with one line for %s', (_, args, reason) => {
    expect(() => reader().runInput(args)).toThrow(new Error(reason));
  });
});

describe('an activity input read whole', () => {
  it('of call_model: its turn and its request', () => {
    const request = { model: 'agent-m', messages: [{ role: 'user', content: 'go' }], metadata: { longrun_turn: '3' } };
    expect(reader().activityInput('call-model', [{ runId: 'r', turn: 3, request }])).toEqual({
      kind: 'call-model',
      turn: 3,
      request: new MessageInterner().summarizeRequest(request),
    });
    // A turn that is not a number is no turn.
    expect(reader().activityInput('call-model', [{ turn: '3', request }])).toMatchObject({ turn: undefined });
    expect(() => reader().activityInput('call-model', [{ turn: 3 }])).toThrow(new Error('nothing at [0].request'));
  });

  it('of compact_context: messages that are not an array refused, none where the mapping has no path', () => {
    expect(() => reader().activityInput('compact-context', [{ turn: 4, messages: { role: 'user' } }])).toThrow(
      new Error('compaction messages is not an array'),
    );
    expect(() => reader().activityInput('compact-context', [{ turn: 4 }])).toThrow(new Error('nothing at [0].messages'));
    const mapping = { ...DEFAULT_KERNEL_MAPPING, paths: { ...DEFAULT_KERNEL_MAPPING.paths, compactMessages: null } };
    expect(new ContractReader(mapping).activityInput('compact-context', [{ turn: 4, messages: 'x' }])).toEqual({
      kind: 'compact-context',
      turn: 4,
      messages: undefined,
      recentToolIdentifiers: [],
    });
    expect(new ContractReader(mapping).compactInput([{ turn: 4, messages: [] }])).toBeUndefined();
  });

  it('of run_tool: its turn and the call it runs', () => {
    const call = { id: 'call_4_2', type: 'function', function: { name: 'shell', arguments: '{}' } };
    expect(reader().activityInput('run-tool', [{ runId: 'r', turn: 5, call }])).toEqual({
      kind: 'run-tool',
      turn: 5,
      toolCallId: 'call_4_2',
    });
    expect(reader().activityInput('run-tool', [{ turn: 5, call: { id: 42 } }])).toEqual({
      kind: 'run-tool',
      turn: 5,
      toolCallId: undefined,
    });
  });

  it('of journal.append: each event with its hash, one event taken as a list of one', () => {
    const event: JournalEvent = { runId: 'r', seq: 7, type: 'turn.completed', turn: 3, data: { bytes: 1200 }, prevHash: '0'.repeat(64) };
    const second = { ...event, seq: 8, prevHash: journalHash(event) };
    expect(reader().activityInput('journal-append', [{ events: [event, second] }])).toEqual({
      kind: 'journal-append',
      entries: [
        { event, hash: journalHash(event) },
        { event: second, hash: journalHash(second) },
      ],
    });
    expect(reader().activityInput('journal-append', [{ events: event }])).toEqual({
      kind: 'journal-append',
      entries: [{ event, hash: journalHash(event) }],
    });
  });

  it.each([
    ['an event that is not an object', ['e'], 'journal event 0 has no seq or type'],
    ['an event without seq', [{ type: 'turn.completed' }], 'journal event 0 has no seq or type'],
    ['a seq that is not a number', [{ seq: '7', type: 'turn.completed' }], 'journal event 0 has no seq or type'],
    ['an event without type', [{ seq: 7 }, { seq: 8, type: 7 }], 'journal event 0 has no seq or type'],
    [
      'a second event without type',
      [
        { seq: 7, type: 'turn.completed' },
        { seq: 8, type: 7 },
      ],
      'journal event 1 has no seq or type',
    ],
  ])('of journal.append refuses %s', (_, events, reason) => {
    expect(() => reader().activityInput('journal-append', [{ events }])).toThrow(new Error(reason));
  });

  it('of another activity: nothing read', () => {
    expect(reader().activityInput('other', [])).toEqual({ kind: 'other' });
    expect(reader().inputFromBytes('other', [])).toBeUndefined();
    expect(reader().inputFromBytes('run-tool', [])).toBeUndefined();
    expect(reader().resultFromBytes('call-model', [])).toBeUndefined();
  });
});

describe('an activity result read whole', () => {
  const ANSWER = {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'shell', arguments: '{}' } }],
  };

  it('of call_model: the answer, and its usage where there is one', () => {
    const usage = { prompt_tokens: 1200, completion_tokens: 40 };
    expect(reader().activityResult('call-model', [{ message: ANSWER, usage }])).toEqual({
      kind: 'call-model',
      answer: new MessageInterner().summarizeAnswer(ANSWER),
      usage,
    });
    const bare = reader().activityResult('call-model', [{ message: ANSWER }]);
    expect(bare).toEqual({ kind: 'call-model', answer: new MessageInterner().summarizeAnswer(ANSWER) });
    expect(bare).not.toHaveProperty('usage');
    const paths = { ...DEFAULT_KERNEL_MAPPING.paths, callModelUsage: null };
    expect(
      new ContractReader({ ...DEFAULT_KERNEL_MAPPING, paths }).activityResult('call-model', [{ message: ANSWER, usage }]),
    ).not.toHaveProperty('usage');
    expect(() => reader().activityResult('call-model', [{ usage }])).toThrow(new Error('nothing at [0].message'));
  });

  it('of compact_context: the card, which must be a text', () => {
    expect(reader().activityResult('compact-context', [{ card: 'GOAL: fix src/main.go' }])).toEqual({
      kind: 'compact-context',
      card: 'GOAL: fix src/main.go',
    });
    expect(() => reader().activityResult('compact-context', [{ card: { goal: 'x' } }])).toThrow(new Error('the card is not a string'));
  });

  it('of run_tool: the tool message the kernel appends; a result without a call id refused', () => {
    const result = { tool_call_id: 'call_1', content: 'exit 0', is_error: false };
    expect(reader().activityResult('run-tool', [result])).toEqual({
      kind: 'run-tool',
      message: new MessageInterner().summarize({ role: 'tool', tool_call_id: 'call_1', content: 'exit 0' }),
    });
    for (const bad of ['exit 0', { content: 'exit 0' }, { tool_call_id: 1, content: 'exit 0' }]) {
      expect(() => reader().activityResult('run-tool', [bad])).toThrow(new Error('the tool result has no tool_call_id'));
    }
  });

  it('of journal.append: the hashes as texts, none when they are not a list or the mapping has no path', () => {
    expect(reader().activityResult('journal-append', [{ hashes: ['ab12', 7] }])).toEqual({ kind: 'journal-append', hashes: ['ab12', '7'] });
    expect(reader().activityResult('journal-append', [{ hashes: 'ab12' }])).toEqual({ kind: 'journal-append', hashes: undefined });
    const paths = { ...DEFAULT_KERNEL_MAPPING.paths, journalHashes: null };
    expect(new ContractReader({ ...DEFAULT_KERNEL_MAPPING, paths }).activityResult('journal-append', [{ hashes: ['ab12'] }])).toEqual({
      kind: 'journal-append',
      hashes: undefined,
    });
  });

  it('of another activity: nothing read', () => {
    expect(reader().activityResult('other', [{ anything: 1 }])).toEqual({ kind: 'other' });
  });
});

describe('the tool outputs whose identifiers compaction keeps', () => {
  const tool = (i: number) => ({ role: 'tool', tool_call_id: `call_${i}`, content: `built ${i}abcdef12 at src/m${i}.go` });
  const assistant = (i: number) => ({ role: 'assistant', content: null, tool_calls: [{ id: `call_${i}`, type: 'function' }] });
  const dialog = [{ role: 'user', content: 'build it' }, ...Array.from({ length: 10 }, (_, i) => [assistant(i), tool(i)]).flat()];
  const expected = [9, 8, 7, 6, 5, 4, 3, 2].map((i) => [`${i}abcdef12`, `src/m${i}.go`]);

  it('are the 8 most recent, most recent first, other messages passed over, read whole or from the bytes', () => {
    const whole = reader().activityInput('compact-context', [{ turn: 11, messages: dialog }]);
    expect(whole).toMatchObject({ recentToolIdentifiers: expected });
    const fromBytes = reader().compactInput(jsonTextPayloads(JSON.stringify({ turn: 11, messages: dialog }), true));
    expect(fromBytes).toMatchObject({ kind: 'compact-context', turn: 11, recentToolIdentifiers: expected });
  });

  it('are all of them when fewer than 8, even the first message of the dialog', () => {
    const short = [tool(0), assistant(1), tool(1)];
    const read = (messages: unknown[]) => reader().compactInput(jsonTextPayloads(JSON.stringify({ turn: 2, messages }), true));
    const both = [
      ['1abcdef12', 'src/m1.go'],
      ['0abcdef12', 'src/m0.go'],
    ];
    expect(read(short)).toMatchObject({ recentToolIdentifiers: both });
    expect(reader().activityInput('compact-context', [{ messages: short }])).toMatchObject({ recentToolIdentifiers: both });
  });
});

describe('the part of a tool output the digest shows', () => {
  /** The identifiers the checks take from one tool output sent to compaction. */
  const recentOf = (content: string): string[] => {
    const input = reader().activityInput('compact-context', [{ messages: [{ role: 'tool', tool_call_id: 'call_1', content }] }]);
    return input.kind === 'compact-context' ? (input.recentToolIdentifiers[0] ?? []) : [];
  };
  /** `text` padded with spaces to `bytes` ASCII bytes. */
  const padded = (text: string, bytes: number) => text.padEnd(bytes, ' ');

  it('is the whole text up to 2,048 bytes, and only its head and tail past that', () => {
    // An identifier straddles byte 1,024: the digest shows it only while it shows the whole text.
    const whole = `${padded('head_id_1', 1020)}mid_id_2${padded('', 1020)}`;
    expect(Buffer.byteLength(whole)).toBe(2048);
    expect(recentOf(whole)).toEqual(['head_id_1', 'mid_id_2']);
    expect(recentOf(`${whole} `)).toEqual(['head_id_1']);
  });

  it('has no head when the head is one token cut at the edge, and no tail when the tail is', () => {
    const token = 'a_1'.repeat(400);
    expect(recentOf(`${token} ${padded('', 1500)}tail_id_3`)).toEqual(['tail_id_3']);
    expect(recentOf(`head_id_1${padded('', 1500)}${token}`)).toEqual(['head_id_1']);
    // The tail exactly one token, which would read as an identifier whole.
    expect(recentOf(`head_id_1${padded('', 1500)}z${token.slice(0, 1023)}`)).toEqual(['head_id_1']);
  });

  it('keeps a tail identifier right after the space that opens the tail', () => {
    const tail = padded(' tail_id_4', 1024);
    expect(recentOf(`head_id_1${'x'.repeat(1500)}${tail}`)).toEqual(['tail_id_4']);
  });

  it('keeps the last whole token of the head and drops the one the edge cuts', () => {
    const head = `${padded('', 1000)}head_id_1 cut_id_22222222222222222222222`;
    expect(recentOf(`${head}${padded('', 1500)}tail_id_3`)).toEqual(['head_id_1', 'tail_id_3']);
  });
});

describe('a message the next request re-sends', () => {
  const request = (messages: unknown[]) => JSON.stringify({ runId: 'r', turn: 2, request: { model: 'claude', messages } });
  const wholeRead = (json: string) => reader().activityInput('call-model', decodePayloads({ payloads: jsonTextPayloads(json, false) }));

  it('is left to the whole read when it is an Anthropic answer with a tool call, as the request holds it', () => {
    const answer = { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'shell', input: { cmd: 'go build' } }] };
    const contract = reader();
    contract.activityResult('call-model', [{ message: answer }]);
    const json = request([{ role: 'user', content: 'build it' }, answer]);
    expect(contract.callModelInput(jsonTextPayloads(json, true))).toBeUndefined();
    expect(wholeRead(json)).toMatchObject({ request: { format: 'anthropic-messages' } });
  });

  it('is left to the whole read when it is a tool message of content blocks', () => {
    const blocks = [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }];
    const contract = reader();
    contract.activityResult('run-tool', [{ tool_call_id: 't1', content: blocks }]);
    const json = request([
      { role: 'user', content: 'build it' },
      { role: 'tool', tool_call_id: 't1', content: blocks },
    ]);
    expect(contract.callModelInput(jsonTextPayloads(json, true))).toBeUndefined();
    expect(wholeRead(json)).toMatchObject({ request: { format: 'anthropic-messages' } });
  });
});

describe('the readings from the bytes', () => {
  const REQUEST = JSON.stringify({ runId: 'r', turn: 3, request: { model: 'm', messages: [{ role: 'user', content: 'build it' }] } });
  const COMPACT = JSON.stringify({ runId: 'r', turn: 3, messages: [{ role: 'user', content: 'build it' }], cardMaxBytes: 8192 });
  const RESULT = JSON.stringify({ tool_call_id: 'call_1', content: 'exit 0' });
  const whole = (read: (contract: ContractReader, args: unknown[]) => unknown, json: string) =>
    read(reader(), decodePayloads({ payloads: jsonTextPayloads(json, false) }));

  it('are each handed the payloads of their own activity', () => {
    expect(reader().inputFromBytes('call-model', jsonTextPayloads(REQUEST, true))).toEqual(
      whole((c, args) => c.activityInput('call-model', args), REQUEST),
    );
    expect(reader().inputFromBytes('compact-context', jsonTextPayloads(COMPACT, true))).toEqual(
      whole((c, args) => c.activityInput('compact-context', args), COMPACT),
    );
    expect(reader().resultFromBytes('run-tool', jsonTextPayloads(RESULT, true))).toEqual(
      whole((c, args) => c.activityResult('run-tool', args), RESULT),
    );
  });

  it('leave the payloads of another activity alone, whatever they hold', () => {
    // A kernel's own activity over the dialog (a title, a summary) and one that answers like a tool.
    expect(reader().inputFromBytes('other', jsonTextPayloads(COMPACT, true))).toBeUndefined();
    expect(reader().inputFromBytes('run-tool', jsonTextPayloads(COMPACT, true))).toBeUndefined();
    expect(reader().resultFromBytes('other', jsonTextPayloads(RESULT, true))).toBeUndefined();
    expect(reader().resultFromBytes('call-model', jsonTextPayloads(RESULT, true))).toBeUndefined();
  });

  it('read a tool output that is a list of parts', () => {
    const json = JSON.stringify({ tool_call_id: 'call_1', content: [{ type: 'text', text: 'exit 0' }] });
    const read = reader().toolResult(jsonTextPayloads(json, true));
    expect(read).toBeDefined();
    expect(read).toEqual(whole((c, args) => c.activityResult('run-tool', args), json));
  });

  it('take the turn from its own argument where the mapping puts the request in another', () => {
    // An activity of positional arguments: (turn, request) and (turn, { messages }).
    const at = (arg: number, ...path: string[]) => ({ arg, path });
    const paths = { ...DEFAULT_KERNEL_MAPPING.paths, turn: at(0), callModelRequest: at(1), compactMessages: at(1, 'messages') };
    const mapping = { ...DEFAULT_KERNEL_MAPPING, paths };
    const args = (json: string, asFile: boolean) => [...jsonTextPayloads('3', asFile), ...jsonTextPayloads(json, asFile)];
    const request = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'build it' }] });
    const compact = JSON.stringify({ messages: [{ role: 'user', content: 'build it' }] });
    const read = new ContractReader(mapping).callModelInput(args(request, true));
    expect(read).toMatchObject({ kind: 'call-model', turn: 3 });
    expect(read).toEqual(new ContractReader(mapping).activityInput('call-model', decodePayloads({ payloads: args(request, false) })));
    const compacted = new ContractReader(mapping).compactInput(args(compact, true));
    expect(compacted).toMatchObject({ kind: 'compact-context', turn: 3 });
    expect(compacted).toEqual(
      new ContractReader(mapping).activityInput('compact-context', decodePayloads({ payloads: args(compact, false) })),
    );
  });
});
