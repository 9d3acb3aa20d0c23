/**
 * fast-check generators of agent histories for the property tests: system prompt, user request,
 * optionally an earlier card, then turn groups whose tool results are texts or screenshots of
 * any size up to a cap. Big strings are built from a size and a seed, not generated character
 * by character, so that runs stay fast.
 */
import fc from 'fast-check';
import type { ContentPart, Message, ToolCall } from '../../contract/messages.ts';
import { TOOL_NAMES } from '../../contract/messages.ts';

/** Text of about `bytes` UTF-8 bytes, with some multi-byte characters and JSON escapes. */
export function sizedText(bytes: number, seed: number): string {
  const alphabet = ['a', 'b', 'c', ' ', '\n', '"', 'é', '€', '😀'];
  const unit = Array.from({ length: 64 }, (_, i) => alphabet[(seed * 31 + i * 7) % alphabet.length]).join('');
  return unit.repeat(Math.ceil(bytes / 64 / 2)).slice(0, Math.max(0, Math.floor(bytes / 2)));
}

/** A data URL whose base64 body carries a unique marker, so a test can look for its bytes. */
export function screenshotUrl(bytes: number, seed: number): string {
  const marker = `IMG${seed.toString(36).padStart(6, '0')}Q`;
  const body = `${marker}${'A'.repeat(Math.max(0, bytes - marker.length))}`;
  return `data:image/png;base64,iVBORw0KGgo${body}`;
}

export function imageBodyMarker(url: string): string {
  return url.slice('data:image/png;base64,iVBORw0KGgo'.length, 'data:image/png;base64,iVBORw0KGgo'.length + 10);
}

const toolOutput = (maxBytes: number): fc.Arbitrary<string | ContentPart[]> =>
  fc.oneof(
    fc.tuple(fc.nat(maxBytes), fc.nat()).map(([bytes, seed]) => sizedText(bytes, seed)),
    fc.tuple(fc.nat(maxBytes), fc.nat(), fc.nat(maxBytes / 8)).map(([bytes, seed, caption]) => [
      { type: 'text' as const, text: sizedText(caption, seed + 1) },
      { type: 'image_url' as const, image_url: { url: screenshotUrl(bytes, seed) } },
    ]),
    fc.tuple(fc.nat(maxBytes), fc.nat()).map(([bytes, seed]) => [{ type: 'text' as const, text: sizedText(bytes, seed) }]),
  );

export interface HistoryShape {
  maxGroups: number;
  maxItemBytes: number;
}

/** A group: an assistant message with 0-3 tool calls, then one result per call, in call order. */
function turnGroup(index: number, shape: HistoryShape): fc.Arbitrary<Message[]> {
  return fc
    .record({
      text: fc.option(
        fc.tuple(fc.nat(shape.maxItemBytes / 4), fc.nat()).map(([bytes, seed]) => sizedText(bytes, seed)),
        { nil: null },
      ),
      outputs: fc.array(toolOutput(shape.maxItemBytes), { maxLength: 3 }),
    })
    .map(({ text, outputs }) => {
      const calls: ToolCall[] = outputs.map((_, i) => ({
        id: `call_${index}_${i}`,
        type: 'function',
        function: {
          name: TOOL_NAMES[(index + i) % TOOL_NAMES.length] ?? 'shell',
          arguments: JSON.stringify({ seed: index * 10 + i, bytes: 100 }),
        },
      }));
      const assistant: Message =
        calls.length > 0 ? { role: 'assistant', content: text, tool_calls: calls } : { role: 'assistant', content: text };
      const results: Message[] = outputs.map((content, i) => ({
        role: 'tool',
        tool_call_id: `call_${index}_${i}`,
        content,
      }));
      return [assistant, ...results];
    });
}

export function history(shape: HistoryShape): fc.Arbitrary<Message[]> {
  return fc
    .record({
      system: fc.string({ maxLength: 200 }),
      user: fc.string({ minLength: 1, maxLength: 200 }),
      earlierCard: fc.option(fc.string({ maxLength: 300 }), { nil: undefined }),
      groupCount: fc.nat(shape.maxGroups),
    })
    .chain(({ system, user, earlierCard, groupCount }) =>
      fc
        .tuple(...Array.from({ length: groupCount }, (_, i) => turnGroup(i, shape)))
        .map((groups) => [
          { role: 'system' as const, content: system },
          { role: 'user' as const, content: user },
          ...(earlierCard === undefined ? [] : [{ role: 'system' as const, content: earlierCard }]),
          ...groups.flat(),
        ]),
    );
}

/** Every image data URL in the messages. */
export function screenshotUrls(messages: readonly Message[]): string[] {
  return messages.flatMap((message) =>
    (message.role === 'tool' || message.role === 'user') && Array.isArray(message.content)
      ? message.content.flatMap((part) => (part.type === 'image_url' ? [part.image_url.url] : []))
      : [],
  );
}
