import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TAIL_MAX_BYTES } from '../../contract/limits.ts';
import type { ContentPart, Message } from '../../contract/messages.ts';
import type { BinaryId } from '../index.ts';
import { importPatched } from '../testing/patched-module.ts';
import { jsonBytes } from './bytes.ts';
import { CARD_FRAME } from './card.ts';
import { isPlaceholder } from './elision.ts';
import { rebuildMessages } from './rebuild.ts';
import { history } from './test-arbitraries.ts';
import { splitTurnGroups } from './turn-groups.ts';

/** A broken control's rebuildMessages, from its patched kernel. */
async function patchedRebuild(control: BinaryId): Promise<typeof rebuildMessages> {
  return (await importPatched<typeof import('./rebuild.ts')>(control, 'context/rebuild.ts')).rebuildMessages;
}

const CARD = '## Task\nt\n## Decisions\nd\n## Files and artifacts\nf\n## Verified\nv\n## Open questions\no\n## Next step\nn';

const rebuildCase = fc.record({
  messages: history({ maxGroups: 14, maxItemBytes: 120_000 }),
  tailMaxBytes: fc.oneof(fc.constant(TAIL_MAX_BYTES), fc.integer({ min: 5_000, max: 300_000 })),
});

/** Why the messages break the API's tool contiguity, or null: every call answered right after it, in order. */
function contiguityProblem(messages: readonly Message[]): string | null {
  let i = 0;
  while (i < messages.length) {
    const message = messages[i] as Message;
    if (message.role === 'tool') return `tool result ${message.tool_call_id} at ${i} follows no assistant call`;
    i++;
    if (message.role !== 'assistant') continue;
    for (const call of message.tool_calls ?? []) {
      const result = messages[i];
      if (result?.role !== 'tool' || result.tool_call_id !== call.id) return `call ${call.id} is not answered at ${i}`;
      i++;
    }
  }
  return null;
}

/** The same message, but that some items may have become placeholders. */
function sameButElided(rebuilt: Message, original: Message): boolean {
  if (rebuilt.role !== original.role) return false;
  if (rebuilt.role === 'assistant' && original.role === 'assistant') {
    const textKept = rebuilt.content === original.content || (rebuilt.content !== null && isPlaceholder(rebuilt.content));
    return textKept && JSON.stringify(rebuilt.tool_calls) === JSON.stringify(original.tool_calls);
  }
  if (rebuilt.role === 'tool' && original.role === 'tool') {
    if (rebuilt.tool_call_id !== original.tool_call_id) return false;
    if (typeof rebuilt.content === 'string') return rebuilt.content === original.content || isPlaceholder(rebuilt.content);
    const originalParts = original.content as ContentPart[];
    return (
      rebuilt.content.length === originalParts.length &&
      rebuilt.content.every(
        (part, i) => JSON.stringify(part) === JSON.stringify(originalParts[i]) || (part.type === 'text' && isPlaceholder(part.text)),
      )
    );
  }
  return JSON.stringify(rebuilt) === JSON.stringify(original);
}

describe('rebuildMessages', () => {
  it('keeps the system prompt and the user request verbatim, then one framed card message', () => {
    fc.assert(
      fc.property(rebuildCase, ({ messages, tailMaxBytes }) => {
        const rebuilt = rebuildMessages(messages, CARD, { tailMaxBytes });
        expect(rebuilt.messages[0]).toEqual(messages[0]);
        expect(rebuilt.messages[1]).toEqual(messages[1]);
        expect(rebuilt.messages[2]).toEqual({ role: 'system', content: `${CARD_FRAME}\n\n${CARD}` });
        expect(rebuilt.messages.slice(3).filter((message) => message.role === 'system')).toEqual([]);
      }),
    );
  });

  it('keeps 2 to 8 whole groups (all of them when fewer than 2), never splitting one, within the byte cap', () => {
    fc.assert(
      fc.property(rebuildCase, ({ messages, tailMaxBytes }) => {
        const { groups } = splitTurnGroups(messages);
        const rebuilt = rebuildMessages(messages, CARD, { tailMaxBytes });
        const tail = rebuilt.messages.slice(3);
        expect(rebuilt.kept).toBeGreaterThanOrEqual(Math.min(2, groups.length));
        expect(rebuilt.kept).toBeLessThanOrEqual(8);
        expect(rebuilt.kept + rebuilt.dropped).toBe(groups.length);
        expect(contiguityProblem(tail)).toBeNull();
        const keptOriginal = groups.slice(groups.length - rebuilt.kept).flat();
        expect(tail).toHaveLength(keptOriginal.length);
        expect(tail.every((message, i) => sameButElided(message, keptOriginal[i] as Message))).toBe(true);
        expect(rebuilt.tailBytes).toBe(jsonBytes(tail));
        expect(rebuilt.tailBytes).toBeLessThanOrEqual(tailMaxBytes);
      }),
    );
  });

  it('takes as many whole groups as fit: one more would pass the cap or the 8-group maximum', () => {
    fc.assert(
      fc.property(rebuildCase, ({ messages, tailMaxBytes }) => {
        const { groups } = splitTurnGroups(messages);
        const rebuilt = rebuildMessages(messages, CARD, { tailMaxBytes });
        if (rebuilt.kept >= Math.min(8, groups.length)) return;
        if (rebuilt.elided.length > 0) {
          expect(rebuilt.kept).toBe(2);
          return;
        }
        const oneMore = groups.slice(groups.length - rebuilt.kept - 1).flat();
        expect(jsonBytes(oneMore)).toBeGreaterThan(tailMaxBytes);
      }),
    );
  });

  it('elides inside the last two groups only when they alone pass the cap', () => {
    fc.assert(
      fc.property(rebuildCase, ({ messages, tailMaxBytes }) => {
        const { groups } = splitTurnGroups(messages);
        const rebuilt = rebuildMessages(messages, CARD, { tailMaxBytes });
        const lastTwo = groups.slice(-2).flat();
        if (rebuilt.elided.length > 0) expect(jsonBytes(lastTwo)).toBeGreaterThan(tailMaxBytes);
        else expect(rebuilt.messages.slice(3)).toEqual(groups.slice(groups.length - rebuilt.kept).flat());
      }),
    );
  });

  it('drops the cards of earlier compactions', () => {
    const messages: Message[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'req' },
      { role: 'system', content: 'old card' },
      { role: 'assistant', content: 'a1' },
      { role: 'assistant', content: 'a2' },
    ];
    const rebuilt = rebuildMessages(messages, CARD, { tailMaxBytes: 1_000 });
    expect(rebuilt.messages.map((message) => message.content)).toEqual(['sys', 'req', `${CARD_FRAME}\n\n${CARD}`, 'a1', 'a2']);
  });

  it('in the split-group control, leaves tool results without their assistant message', async () => {
    const messages: Message[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'req' },
      ...[1, 2, 3].flatMap((i): Message[] => [
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'shell', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: `c${i}`, content: `out ${i}` },
      ]),
    ];
    expect(contiguityProblem(rebuildMessages(messages, CARD, { tailMaxBytes: 100_000 }).messages.slice(3))).toBeNull();
    const broken = (await patchedRebuild('split-group'))(messages, CARD, { tailMaxBytes: 100_000 });
    expect(contiguityProblem(broken.messages.slice(3))).toMatch(/follows no assistant call/);
  });

  describe("the broken controls' patches", () => {
    const groupOf = (i: number, bytes: number): Message[] => [
      { role: 'assistant', content: null, tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'shell', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: `c${i}`, content: 'x'.repeat(bytes) },
    ];
    const dialog = (sizes: number[]): Message[] => [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'req' },
      ...sizes.flatMap((bytes, i) => groupOf(i, bytes)),
    ];

    it('tail-nine-groups keeps a ninth group that fits; the spec stops at 8', async () => {
      const messages = dialog(Array(12).fill(100));
      expect(rebuildMessages(messages, CARD, { tailMaxBytes: 100_000 }).kept).toBe(8);
      expect((await patchedRebuild('tail-nine-groups'))(messages, CARD, { tailMaxBytes: 100_000 }).kept).toBe(9);
    });

    it('tail-one-group keeps one group when the last two pass the cap; the spec keeps two and elides', async () => {
      const messages = dialog([100, 5_000, 5_000]);
      const spec = rebuildMessages(messages, CARD, { tailMaxBytes: 6_000 });
      expect([spec.kept, spec.elided.length]).toEqual([2, 1]);
      const broken = (await patchedRebuild('tail-one-group'))(messages, CARD, { tailMaxBytes: 6_000 });
      expect([broken.kept, broken.elided.length]).toEqual([1, 0]);
    });

    it('tail-cap-off-by-one takes a group that passes the cap by one byte, then elides inside it', async () => {
      const messages = dialog([100, 100, 100, 100]);
      const threeGroups = jsonBytes(messages.slice(-6));
      const spec = rebuildMessages(messages, CARD, { tailMaxBytes: threeGroups - 1 });
      expect([spec.kept, spec.elided.length]).toEqual([2, 0]);
      const broken = (await patchedRebuild('tail-cap-off-by-one'))(messages, CARD, { tailMaxBytes: threeGroups - 1 });
      expect(broken.kept).toBe(3);
      expect(broken.elided.length).toBeGreaterThan(0);
    });

    it('tail-keeps-texts leaves a tail over the cap that the spec brings under it', async () => {
      const talkative = (i: number): Message[] => [
        {
          role: 'assistant',
          content: 'why '.repeat(1_000),
          tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'shell', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: `c${i}`, content: 'x'.repeat(500) },
      ];
      const messages: Message[] = [{ role: 'system', content: 'sys' }, { role: 'user', content: 'req' }, ...talkative(0), ...talkative(1)];
      const spec = rebuildMessages(messages, CARD, { tailMaxBytes: 3_000 });
      expect(spec.kept).toBe(2);
      expect(spec.tailBytes).toBeLessThanOrEqual(3_000);
      expect(spec.elided.map((item) => item.kind)).toContain('assistant_text');
      const broken = (await patchedRebuild('tail-keeps-texts'))(messages, CARD, { tailMaxBytes: 3_000 });
      expect(broken.tailBytes).toBeGreaterThan(3_000);
    });
  });
});
