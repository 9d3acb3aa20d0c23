import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../contract/messages.ts';
import { utf8Bytes } from './bytes.ts';
import { buildDigest, DIGEST_DEFAULTS } from './digest.ts';
import { history, imageBodyMarker, screenshotUrl, screenshotUrls } from './test-arbitraries.ts';

const histories = history({ maxGroups: 14, maxItemBytes: 30_000 });

describe('buildDigest', () => {
  it('never contains the bytes of a screenshot, and counts every one', () => {
    fc.assert(
      fc.property(histories, (messages) => {
        const digest = buildDigest(messages);
        const urls = screenshotUrls(messages);
        for (const url of urls) {
          expect(digest).not.toContain(imageBodyMarker(url));
          expect(digest).not.toContain('base64,');
        }
        expect(digest.split('\n')[0]).toBe(`Digest of ${messages.length} messages; ${urls.length} screenshots counted, not included.`);
      }),
    );
  });

  it('strips data URLs that a text carries', () => {
    const url = screenshotUrl(2_000, 42);
    const messages: Message[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: `look at ${url} please` },
    ];
    const digest = buildDigest(messages);
    expect(digest).toContain('look at [inline image omitted] please');
    expect(digest).not.toContain(imageBodyMarker(url));
  });

  it('caps each message to its head and tail, saying how much was left out', () => {
    const text = `${'h'.repeat(2_000)}MIDDLE${'t'.repeat(2_000)}`;
    const digest = buildDigest([
      { role: 'system', content: 'sys' },
      { role: 'user', content: text },
    ]);
    expect(digest).toContain(`${'h'.repeat(1_024)}\n[... 1,958 bytes omitted ...]\n${'t'.repeat(1_024)}`);
    expect(digest).not.toContain('MIDDLE');
  });

  it('cuts windows in UTF-16 units in the digest-in-units control: a Cyrillic head is twice the bytes', () => {
    const text = 'я'.repeat(3_000);
    const messages = [
      { role: 'system' as const, content: 'sys' },
      { role: 'user' as const, content: text },
    ];
    expect(buildDigest(messages)).toContain(`\n${'я'.repeat(512)}\n[... 3,952 bytes omitted ...]\n${'я'.repeat(512)}`);
    expect(buildDigest(messages, { ...DIGEST_DEFAULTS, windowUnit: 'utf16-units' })).toContain(
      `\n${'я'.repeat(1_024)}\n[... 1,904 bytes omitted ...]\n${'я'.repeat(1_024)}`,
    );
  });

  it('stays about its byte budget, keeping the first and the last messages', () => {
    fc.assert(
      fc.property(histories, (messages) => {
        const digest = buildDigest(messages, { ...DIGEST_DEFAULTS, maxBytes: 8_000 });
        expect(utf8Bytes(digest)).toBeLessThanOrEqual(8_000 + 64);
        expect(digest).toContain('### [0] system');
        expect(digest).toContain(`### [${messages.length - 1}] `);
      }),
    );
  });

  it('lists tool calls with their capped arguments', () => {
    const digest = buildDigest([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'req' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'read_file', arguments: '{"path":"/srv/app.ts"}' } }],
      },
    ]);
    expect(digest).toContain('tool call call_9: read_file {"path":"/srv/app.ts"}');
  });
});
