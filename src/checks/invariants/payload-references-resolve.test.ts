import { describe, expect, it } from 'vitest';
import { payloadSize } from '../history/payloads.ts';
import { checkRun, type InvariantResult, listReferences, loadHistory, type StoredPayloads } from '../index.ts';
import { AgentRunHistory } from '../testing/index.ts';
import { referencePayload, scheduledOf, storedJson } from '../testing/storage-reference.ts';

const DRIVER = 'aws.s3driver';
const stored = storedJson(40_000);
const size = payloadSize(stored);

/** A run whose first model call's input was offloaded to `DRIVER`, its reference stating `statedSize`. */
function offloaded(statedSize: number | undefined) {
  const histories = structuredClone(new AgentRunHistory().turns(2).complete().histories());
  (scheduledOf(histories[0] as never, 'call_model')[0] as { input: unknown }).input = {
    payloads: [referencePayload(DRIVER, 'v0/d/sha256/ab12', statedSize)],
  };
  const store: StoredPayloads = new Map([[listReferences(histories[0])[0]?.key as string, stored]]);
  const judged = (result: { results: readonly InvariantResult[] }) =>
    result.results.find((r) => r.id === 'payload.references-resolve') as InvariantResult;
  return {
    /** Loaded with the store: the stored payload measured as the history is read. */
    loadedWithStore: () => judged(checkRun(histories, { storedPayloads: store })),
    /** Loaded without it, the store given to the checks: the stored payload measured as the reference is judged. */
    storeGivenLater: () =>
      judged(
        checkRun(
          histories.map((json, i) => loadHistory(json, { source: `execution ${i + 1}` })),
          { storedPayloads: store },
        ),
      ),
  };
}

describe('payload.references-resolve', () => {
  it('passes a reference whose stored payload is the size it states, whenever the store was given', () => {
    const run = offloaded(size);
    for (const result of [run.loadedWithStore(), run.storeGivenLater()]) {
      expect(result).toEqual({
        id: 'payload.references-resolve',
        status: 'pass',
        evidence: [`1 of 1 references resolve (${size.toLocaleString('en-US')} bytes stored; ${DRIVER}: 1)`],
      });
    }
  });

  it('fails a reference whose stored payload is another size than it states, whenever the store was given', () => {
    const run = offloaded(size + 1);
    for (const result of [run.loadedWithStore(), run.storeGivenLater()]) {
      expect(result.status).toBe('fail');
      expect(result.evidence[0]).toMatch(
        new RegExp(
          `^event \\d+: ActivityTaskScheduled call_model input\\[0\\] \\(activity input\\): the stored payload is ${size.toLocaleString('en-US')} bytes, the reference says ${(size + 1).toLocaleString('en-US')} \\(key .+\\)$`,
        ),
      );
    }
  });

  it('resolves a reference that states no size by its stored payload, measured', () => {
    const run = offloaded(undefined);
    for (const result of [run.loadedWithStore(), run.storeGivenLater()]) {
      expect(result.status).toBe('pass');
      expect(result.evidence[0]).toBe(`1 of 1 references resolve (${size.toLocaleString('en-US')} bytes stored; ${DRIVER}: 1)`);
    }
  });
});
