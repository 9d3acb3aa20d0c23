import { describe, expect, it } from 'vitest';
import { planRun } from '../synthetic/plan-run.ts';
import { readAnthropicRequest } from './anthropic-request.ts';
import {
  type CarriedCompaction,
  type ContextWindow,
  carriedProblem,
  decideCompaction,
  readSeal,
  type Seal,
  SUMMARY_TOKENS,
  sealToken,
} from './provider-compaction.ts';
import { readResponsesRequest } from './responses-request.ts';

const SEAL: Seal = { run: 'run-1', turn: 4, answers: 3, users: 1, tokens: 25_000, origin: 'responses' };
const plans = (seed: number) => (runId: string) => planRun({ seed, runId, shape: { scale: 0.01 } });

function carried(token: string, content = ''): CarriedCompaction[] {
  return [{ path: 'body.input.0.encrypted_content', token, content }];
}

describe('compaction tokens', () => {
  const token = sealToken(7, SEAL, 'the summary');

  it('read back the seal they were made from, the same for the same seed', () => {
    expect(readSeal(token)).toEqual(SEAL);
    expect(sealToken(7, SEAL, 'the summary')).toBe(token);
    expect(sealToken(8, SEAL, 'the summary')).not.toBe(token);
  });

  it("are taken when genuine, and refused when forged, another seed's, bound to another summary, or another run's", () => {
    expect(carriedProblem(carried(token, 'the summary'), plans(7), 'run-1')).toBeNull();
    expect(carriedProblem(carried(token, 'the summary'), plans(7), null)).toBeNull();
    const refused = 'body.input.0.encrypted_content: not a compaction this provider issued';
    // Another seed: another provider's item.
    expect(carriedProblem(carried(token, 'the summary'), plans(8), 'run-1')).toContain(refused);
    // A summary changed on the way back.
    expect(carriedProblem(carried(token, 'the summary.'), plans(7), 'run-1')).toContain(refused);
    // The seal rewritten, its signature kept.
    const [prefix, , signature] = token.split('.');
    const rewritten = Buffer.from(JSON.stringify({ ...SEAL, answers: 0 })).toString('base64url');
    expect(carriedProblem(carried(`${prefix}.${rewritten}.${signature}`, 'the summary'), plans(7), 'run-1')).toContain(refused);
    // Not a token at all, or one naming a run no plan can have.
    expect(carriedProblem(carried('opaque-bytes-of-another-provider'), plans(7), null)).toContain(refused);
    const unplannable = sealToken(7, { ...SEAL, run: 'a run]' }, '');
    expect(carriedProblem(carried(unplannable), () => planRun({ seed: 7, runId: 'a run]' }), null)).toContain(refused);
    // A genuine token in a request of another run.
    expect(carriedProblem(carried(token, 'the summary'), plans(7), 'run-2')).toBe(
      'body.input.0.encrypted_content: a compaction issued for run run-1, in a request of run run-2',
    );
  });
});

describe('the decision and the usage', () => {
  const window = (inputTokens: number, threshold: number | null, extra: Partial<ContextWindow> = {}): ContextWindow => ({
    mode: 'threshold',
    threshold,
    pause: false,
    beta: null,
    carried: [],
    latest: null,
    inputTokens,
    baseTokens: 300,
    prefixTokens: 0,
    cacheControl: false,
    ...extra,
  });
  const context = (format: 'responses' | 'messages') => ({
    format,
    runId: 'run-1',
    turn: 5,
    seed: 7,
    answers: 4,
    users: 1,
    summary: () => '## Task\nthe card',
  });

  it('compacts past the OpenAI threshold, at the Anthropic trigger, and never without a threshold or context_management', () => {
    expect(decideCompaction(window(20_000, 20_000), context('responses')).compaction).toBeNull();
    expect(decideCompaction(window(20_001, 20_000), context('responses')).compaction).not.toBeNull();
    expect(decideCompaction(window(49_999, 50_000), context('messages')).compaction).toBeNull();
    expect(decideCompaction(window(50_000, 50_000), context('messages')).compaction).not.toBeNull();
    expect(decideCompaction(window(900_000, null), context('responses')).compaction).toBeNull();
    expect(decideCompaction(window(900_000, 1000, { mode: 'none' }), context('responses')).compaction).toBeNull();
  });

  it('seals what the compaction replaced, binds the summary to an Anthropic block, and bills the summary as written', () => {
    const openai = decideCompaction(window(30_000, 20_000), context('responses'));
    expect(readSeal(openai.compaction?.token as string)).toEqual({ ...SEAL, turn: 5, answers: 4, tokens: 30_000 });
    expect(openai.compaction?.summary).toBe('');
    expect(openai.pass).toEqual({ inputTokens: 30_000, cacheReadTokens: 0, outputTokens: SUMMARY_TOKENS });
    expect(openai.compactedTokens).toBe(300 + SUMMARY_TOKENS);
    const anthropic = decideCompaction(window(60_000, 50_000, { pause: true }), context('messages'));
    expect(anthropic.compaction?.summary).toBe('## Task\nthe card');
    expect(anthropic.only).toBe(true);
    expect(carriedProblem(carried(anthropic.compaction?.token as string, '## Task\nthe card'), plans(7), 'run-1')).toBeNull();
    expect(decideCompaction(window(10, null, { mode: 'param' }), context('messages')).compaction?.signed).toBe(true);
  });

  it('caches the stable prefix: OpenAI from 1024 tokens in steps of 128, Anthropic only behind cache_control', () => {
    expect(decideCompaction(window(5000, null, { prefixTokens: 1023 }), context('responses')).cacheReadTokens).toBe(0);
    expect(decideCompaction(window(5000, null, { prefixTokens: 4000 }), context('responses'))).toMatchObject({
      cacheReadTokens: 3968,
      cacheWriteTokens: 4992 - 3968,
    });
    expect(decideCompaction(window(5000, null, { prefixTokens: 4000 }), context('messages')).cacheReadTokens).toBe(0);
    expect(decideCompaction(window(5000, null, { prefixTokens: 4000, cacheControl: true }), context('messages'))).toMatchObject({
      cacheReadTokens: 4000,
      cacheWriteTokens: 1000,
    });
  });
});

describe('reading the fields as the APIs check them', () => {
  const responses = (extra: Record<string, unknown>) => () =>
    readResponsesRequest(JSON.stringify({ model: 'm', input: 'hi', ...extra }), []);
  const messages = (extra: Record<string, unknown>) => () =>
    readAnthropicRequest(JSON.stringify({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], ...extra }), []);
  const edit = (fields: Record<string, unknown>) => ({ context_management: { edits: [{ type: 'compact_20260112', ...fields }] } });

  it('takes well-formed fields', () => {
    expect(responses({ context_management: [{ type: 'compaction', compact_threshold: 1000 }] })().window?.threshold).toBe(1000);
    expect(messages(edit({}))().window).toMatchObject({ mode: 'threshold', threshold: 150_000, beta: 'compact-2026-01-12' });
    expect(messages({ compaction: { type: 'summarize' } })().window).toMatchObject({ mode: 'param', beta: 'compact-2026-09-04' });
  });

  it('refuses malformed ones, naming the field', () => {
    expect(responses({ context_management: [{ type: 'compaction', compact_threshold: 999 }] })).toThrow(
      'body.context_management.0.compact_threshold: must be an integer of at least 1000, got 999',
    );
    expect(responses({ context_management: [{ type: 'compaction' }, { type: 'compaction' }] })).toThrow(
      'body.context_management: one compaction entry at most, got 2',
    );
    expect(responses({ input: [{ type: 'compaction' }] })).toThrow('body.input.0.encrypted_content:');
    expect(messages(edit({ trigger: { type: 'tool_uses', value: 60_000 } }))).toThrow('body.context_management.edits.0.trigger.type:');
    expect(messages(edit({ pause_after_compaction: 'yes' }))).toThrow('body.context_management.edits.0.pause_after_compaction:');
    expect(messages({ context_management: { edits: [{ type: 'compact_2025' }] } })).toThrow('body.context_management.edits.0.type:');
    expect(messages({ messages: [{ role: 'assistant', content: [{ type: 'compaction', content: 'a summary' }] }] })).toThrow(
      'body.messages.0.content.0.encrypted_content:',
    );
  });

  it("counts a carried compaction as its summary, and what it replaced into the request's turn", () => {
    const token = sealToken(7, { ...SEAL, answers: 6, users: 1 }, '');
    const big = 'x'.repeat(100_000);
    const plain = readResponsesRequest(JSON.stringify({ model: 'm', input: [{ role: 'user', content: big }] }), []);
    const compacted = readResponsesRequest(
      JSON.stringify({
        model: 'm',
        input: [
          { role: 'user', content: big },
          { type: 'compaction', encrypted_content: token },
          { role: 'assistant', content: 'done' },
        ],
      }),
      [],
    );
    expect(plain.window?.inputTokens).toBeGreaterThan(100_000 / 2.7);
    expect(compacted.window?.inputTokens).toBeLessThan(SUMMARY_TOKENS + 100);
    expect(compacted.answers).toBe(7);
    expect(compacted.userMessages).toBe(1);
  });
});
