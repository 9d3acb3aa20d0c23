/**
 * Writes fixtures.json: what longrun's TypeScript kernel computes for a set of inputs (journal
 * hashes, JSON sizes, the guard, the rebuild, the digest, the card check), so that the Go
 * kernel's tests hold its port to the same answers (test/go-kernel.test.ts fails when the file
 * is stale). Run from the repository's root:
 *   node --import tsx examples/go-kernel/testdata/make-fixtures.ts
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { canonicalJson, journalHash } from '../../../src/contract/journal-hash.ts';
import type { ContentPart, Message } from '../../../src/contract/messages.ts';
import { buildDigest, cardProblem, guardMessages, jsonBytes, rebuildMessages } from '../../../src/kernel/context/index.ts';

const MULTIBYTE = 'Проверка сборки 🚀 — 東京, naïve café, e\u0301, line\u2028sep\u2029, tab\tnl\nbell\u0007 <a href="x">&amp;</a>';

function text(seed: number, bytes: number): string {
  let out = `[${seed}] ${MULTIBYTE} run-${seed} /srv/app/file-${seed}.go 9f3c2ab${seed % 10} `;
  while (Buffer.byteLength(out) < bytes) out += `line ${out.length} of output ${seed}: ok\n`;
  return out;
}

function image(bytes: number): ContentPart {
  return { type: 'image_url', image_url: { url: `data:image/png;base64,${'iVBORw0KGgo'.repeat(Math.ceil(bytes / 11)).slice(0, bytes)}` } };
}

function turn(n: number, outputBytes: number, screenshot: number): Message[] {
  const call = (i: number, name: string) => ({
    id: `call_${n}_${i}`,
    type: 'function' as const,
    function: { name, arguments: JSON.stringify({ seed: n * 10 + i, bytes: outputBytes }) },
  });
  const calls = [call(0, 'shell'), call(1, 'screenshot')] as const;
  const shot: Message =
    screenshot > 0
      ? { role: 'tool', tool_call_id: calls[1].id, content: [{ type: 'text', text: `screenshot ${n}` }, image(screenshot)] }
      : { role: 'tool', tool_call_id: calls[1].id, content: text(n * 10 + 1, 300) };
  return [
    { role: 'assistant', content: `Turn ${n}: ${MULTIBYTE}`, tool_calls: [...calls] },
    { role: 'tool', tool_call_id: calls[0].id, content: text(n * 10, outputBytes) },
    shot,
  ];
}

const history: Message[] = [
  { role: 'system', content: `You are an agent. ${MULTIBYTE}` },
  { role: 'user', content: `Fix the build of services/api/main.go, ticket OPS-4821. ${MULTIBYTE}` },
  ...Array.from({ length: 10 }, (_, i) => turn(i + 1, 2_000 + i * 900, i % 3 === 2 ? 6_000 : 0)).flat(),
  { role: 'assistant', content: null },
];

const card = [
  '## Task',
  'Fix the build. run-1',
  '## Decisions',
  'none',
  '## Files and artifacts',
  '/srv/app/file-1.go',
  '## Verified',
  'nothing',
  '## Open questions',
  'none',
  '## Next step',
  'go on',
].join('\n');

const events = [
  {
    runId: 'run-0001',
    seq: 1,
    type: 'run.started',
    turn: 0,
    data: { max_turns: 40, limits: { blobLimitBytes: 262144, tailMaxBytes: 32768 } },
    prevHash: '0'.repeat(64),
  },
  {
    runId: 'run-0001',
    seq: 2,
    type: 'context.compacted',
    turn: 7,
    data: { card, bytes_before: 150001, kept: 2, dropped: 5, nested: [1, 2.5, -0, 1e21, 1e-7, 123456789012, null, true, 'ü'] },
    prevHash: 'ab'.repeat(32),
  },
  {
    runId: 'run-0001',
    seq: 3,
    type: 'context.compaction_failed',
    turn: 9,
    data: { reason: `HttpUnavailable: ${MULTIBYTE}`, '\u00e9': 1, e: 2, 'e\u0301': 3, '😀': 4, '\uff5e': 5, Z: 6 },
    prevHash: 'cd'.repeat(32),
  },
];

const guardCases = [
  { target: 60_000, bigItem: 4_000, exhaustive: false, countsScreenshots: true, elidesAssistantText: false },
  { target: 20_000, bigItem: 4_000, exhaustive: true, countsScreenshots: true, elidesAssistantText: false },
  { target: 20_000, bigItem: 4_000, exhaustive: true, countsScreenshots: false, elidesAssistantText: false },
  { target: 8_000, bigItem: 100_000, exhaustive: true, countsScreenshots: true, elidesAssistantText: true },
].map((c) => {
  const input = { messages: history, overheadBytes: 1234, targetBytes: c.target, bigItemBytes: c.bigItem };
  const result = guardMessages(input, {
    exhaustive: c.exhaustive,
    countsScreenshots: c.countsScreenshots,
    elidesAssistantText: c.elidesAssistantText,
  });
  return { ...c, overhead: 1234, result };
});

const rebuildCases = [100_000, 20_000, 9_000, 1_000].map((tailMaxBytes) => ({
  tailMaxBytes,
  result: rebuildMessages(history, card, { tailMaxBytes }),
}));

export const FIXTURES_FILE = fileURLToPath(new URL('./fixtures.json', import.meta.url));

/** The text of fixtures.json, as the TypeScript kernel computes it now. */
export function goKernelFixtures(): string {
  const fixtures = {
    history,
    historyBytes: jsonBytes(history),
    sizes: history.map((message) => ({ message, bytes: jsonBytes(message) })),
    hashes: events.map((event) => ({ event, canonical: canonicalJson(event), hash: journalHash(event as never) })),
    guard: guardCases,
    rebuild: rebuildCases,
    digest: buildDigest(history),
    cards: [card, `${card}\n## Extra`, card.replace('## Verified', '## Checked'), `\n\n${card}  `, 'x'.repeat(9000)].map((c) => ({
      card: c,
      problem: cardProblem(c, 8192),
    })),
  };

  return `${JSON.stringify(fixtures, null, 1)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(FIXTURES_FILE, goKernelFixtures());
