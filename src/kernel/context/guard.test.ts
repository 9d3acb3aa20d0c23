import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../contract/messages.ts';
import { jsonBytes } from './bytes.ts';
import { type ElidableKind, elideItems, isPlaceholder, listElidableItems, placeholder } from './elision.ts';
import { type GuardInput, type GuardPolicy, guardMessages } from './guard.ts';
import { history, screenshotUrl, screenshotUrls } from './test-arbitraries.ts';

const CURRENT: GuardPolicy = { exhaustive: true, countsScreenshots: true };
const V0: GuardPolicy = { exhaustive: false, countsScreenshots: true };
const BLIND: GuardPolicy = { exhaustive: true, countsScreenshots: false };

const shape = { maxGroups: 12, maxItemBytes: 40_000 };
const guardInput = fc.record({
  messages: history(shape),
  overheadBytes: fc.integer({ min: 2, max: 2_000 }),
  targetBytes: fc.integer({ min: 1_000, max: 300_000 }),
  bigItemBytes: fc.integer({ min: 1_000, max: 30_000 }),
});

const ALL = new Set<ElidableKind>(['screenshot', 'tool_output']);

function everythingElided(input: GuardInput): number {
  const items = listElidableItems(input.messages, ALL);
  return input.overheadBytes + jsonBytes(elideItems(input.messages, items));
}

describe('guardMessages on the current binary', () => {
  it('brings every request under the target, or says it cannot only when eliding everything would not', () => {
    fc.assert(
      fc.property(guardInput, (input) => {
        const result = guardMessages(input, CURRENT);
        expect(result.bytesAfter).toBe(input.overheadBytes + jsonBytes(result.messages));
        if (result.fits) expect(result.bytesAfter).toBeLessThanOrEqual(input.targetBytes);
        else expect(everythingElided(input)).toBeGreaterThan(input.targetBytes);
      }),
    );
  });

  it('leaves the system prompt, the request, assistant messages and tool-call ids untouched', () => {
    fc.assert(
      fc.property(guardInput, (input) => {
        const result = guardMessages(input, CURRENT);
        expect(result.messages).toHaveLength(input.messages.length);
        result.messages.forEach((message, index) => {
          const original = input.messages[index] as Message;
          if (message.role !== 'tool') expect(message).toEqual(original);
          else expect(message.tool_call_id).toBe((original as typeof message).tool_call_id);
        });
      }),
    );
  });

  it('does nothing to a request already under the target', () => {
    fc.assert(
      fc.property(guardInput, (input) => {
        fc.pre(input.overheadBytes + jsonBytes(input.messages) <= input.targetBytes);
        const result = guardMessages(input, CURRENT);
        expect(result.messages).toEqual(input.messages);
        expect(result.elided).toEqual([]);
      }),
    );
  });

  it('replaces each elided item with a placeholder naming its kind and size', () => {
    const url = screenshotUrl(50_000, 7);
    const messages: Message[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'do it' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'screenshot', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: [{ type: 'image_url', image_url: { url } }] },
    ];
    const result = guardMessages({ messages, overheadBytes: 10, targetBytes: 1_000, bigItemBytes: 10_000 }, CURRENT);
    expect(result.messages[3]).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: [{ type: 'text', text: `[elided: screenshot, ${url.length.toLocaleString('en-US')} bytes]` }],
    });
    expect(placeholder('tool_output', 123_456)).toBe('[elided: tool output, 123,456 bytes]');
  });
});

describe('guardMessages for the compaction input', () => {
  it('may elide assistant texts too, and then fits unless the rest alone is over the target', () => {
    const withText = new Set<ElidableKind>(['screenshot', 'tool_output', 'assistant_text']);
    fc.assert(
      fc.property(guardInput, (input) => {
        const result = guardMessages(input, { ...CURRENT, elidesAssistantText: true });
        if (result.fits) expect(result.bytesAfter).toBeLessThanOrEqual(input.targetBytes);
        else {
          const everything = elideItems(input.messages, listElidableItems(input.messages, withText));
          expect(input.overheadBytes + jsonBytes(everything)).toBeGreaterThan(input.targetBytes);
        }
        result.messages.forEach((message, index) => {
          if (message.role === 'assistant') expect(message.tool_calls).toEqual((input.messages[index] as typeof message).tool_calls);
        });
      }),
    );
  });
});

describe('guardMessages on v0', () => {
  it('elides only big items, oldest first, and stops as soon as the request fits', () => {
    fc.assert(
      fc.property(guardInput, (input) => {
        const result = guardMessages(input, V0);
        const big = listElidableItems(input.messages, ALL).filter((item) => item.bytes > input.bigItemBytes);
        expect(result.elided).toEqual(big.slice(0, result.elided.length));
        const before = result.elided.slice(0, -1);
        if (result.elided.length > 0) {
          const sizeBeforeLast = input.overheadBytes + jsonBytes(elideItems(input.messages, before));
          expect(sizeBeforeLast).toBeGreaterThan(input.targetBytes);
        }
      }),
    );
  });

  it('sends an oversized request when the big items are not enough, where the current binary elides more', () => {
    const messages: Message[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'do it' },
      ...Array.from({ length: 10 }, (_, i): Message[] => [
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'shell', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: `c${i}`, content: 'x'.repeat(5_000) },
      ]).flat(),
    ];
    const input = { messages, overheadBytes: 10, targetBytes: 30_000, bigItemBytes: 10_000 };
    const v0 = guardMessages(input, V0);
    expect(v0.fits).toBe(false);
    expect(v0.elided).toEqual([]);
    expect(v0.bytesAfter).toBeGreaterThan(30_000);
    const current = guardMessages(input, CURRENT);
    expect(current.fits).toBe(true);
    expect(current.bytesAfter).toBeLessThanOrEqual(30_000);
  });
});

describe('the guard-ignores-screenshots control', () => {
  it('never elides a screenshot, so screenshot bytes pass through', () => {
    fc.assert(
      fc.property(guardInput, (input) => {
        const result = guardMessages(input, BLIND);
        expect(result.elided.every((item) => item.kind !== 'screenshot')).toBe(true);
        expect(screenshotUrls(result.messages)).toEqual(screenshotUrls(input.messages));
        expect(
          result.messages.filter(
            (m) =>
              m.role === 'tool' &&
              Array.isArray(m.content) &&
              m.content.some((p) => p.type === 'text' && isPlaceholder(p.text) && p.text.includes('screenshot')),
          ),
        ).toEqual([]);
      }),
    );
  });
});
