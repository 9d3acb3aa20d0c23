import { describe, expect, it } from 'vitest';
import type { MockRecord } from '../../mocks/recorder/index.ts';
import { inputTokensOf } from './summarize.ts';

function record(fields: Partial<MockRecord>): MockRecord {
  return {
    seq: 1,
    target: 'agent',
    runId: 'r',
    binary: null,
    turn: 1,
    model: 'm',
    tool: null,
    stream: false,
    requestBytes: 0,
    responseBytes: 1,
    status: 200,
    fault: null,
    refusal: null,
    ...fields,
  };
}

describe('inputTokensOf', () => {
  it("bills a request's bytes / BYTES_PER_TOKEN, or the tokens the provider billed where its record has them", () => {
    const tokens = inputTokensOf([
      record({ requestBytes: 27_000 }),
      // A request that carries a compaction item: billed for the summary, not the item's bytes.
      record({ requestBytes: 2_700, inputTokens: 4_034 }),
      record({ target: 'compaction', requestBytes: 5_400 }),
      // Neither a failed request nor the sandbox is billed.
      record({ requestBytes: 270_000, status: 503 }),
      record({ target: 'sandbox', requestBytes: 270_000 }),
    ]);
    expect(tokens).toEqual({ agent: 10_000 + 4_034, compaction: 2_000 });
  });
});
