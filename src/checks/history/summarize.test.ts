/**
 * Non-ASCII content: the checks measure UTF-8 bytes themselves (Buffer.byteLength of the JSON
 * the payload carries), and read lone surrogates without crashing, whatever the kernel counts.
 */
import { defaultPayloadConverter } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { DEFAULT_KERNEL_MAPPING } from '../mapping.ts';
import { MessageInterner } from './messages.ts';
import { decodePayload, payloadSize } from './payloads.ts';
import { ContractReader } from './summarize.ts';

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
