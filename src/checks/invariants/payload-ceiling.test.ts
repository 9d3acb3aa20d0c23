import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../context.ts';
import { checkRun } from '../index.ts';
import { AgentRunHistory, resultOf, SMALL_LIMITS } from '../testing/index.ts';
import { referencePayload, scheduledOf } from '../testing/storage-reference.ts';
import type { InvariantResult } from '../verdict.ts';

describe('payload.ceiling', () => {
  it('passes when every payload stays under the blob limit', () => {
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).play(12).complete();
    const result = resultOf(run, 'payload.ceiling');
    expect(result.status).toBe('pass');
    // Nothing offloaded: no line for the stored payloads.
    expect(result.evidence).toHaveLength(1);
    expect(result.evidence[0]).toMatch(/largest .* ([\d,]+) bytes \(limit 64,000, headroom [\d,]+\)$/);
    const [, largest, headroom] = /largest .* ([\d,]+) bytes \(limit 64,000, headroom ([\d,]+)\)$/.exec(result.evidence[0] ?? '') ?? [];
    expect(Number(largest?.replaceAll(',', '')) + Number(headroom?.replaceAll(',', ''))).toBe(64_000);
  });

  it('fails on a tool result and the request that carries it past the limit, naming both events', () => {
    const run = new AgentRunHistory({ limits: SMALL_LIMITS });
    run.turn({ tools: [70_000] }).turn();
    const result = resultOf(run, 'payload.ceiling');
    expect(result.status).toBe('fail');
    expect(result.evidence[0]).toMatch(/^event \d+: ActivityTaskCompleted run_tool result 70,\d{3} bytes >= limit 64,000$/);
    expect(result.evidence[1]).toMatch(/^event \d+: ActivityTaskScheduled call_model input 70,\d{3} bytes >= limit 64,000$/);
  });

  it('judges against the context when the run does not set its own limit', () => {
    const run = new AgentRunHistory().turn({ tools: [30_000] });
    expect(resultOf(run, 'payload.ceiling').status).toBe('pass');
    expect(resultOf(run, 'payload.ceiling', { limits: { blobLimitBytes: 30_000 } }).status).toBe('fail');
  });

  it('fails a payload at exactly the limit, and names the largest payload, the one a limit a byte above it lets pass', () => {
    const run = new AgentRunHistory().turn({ tools: [30_000] }).turn({ tools: [100] });
    const [, stated] = /largest .* ([\d,]+) bytes \(limit/.exec(resultOf(run, 'payload.ceiling').evidence[0] ?? '') ?? [];
    const largest = Number(stated?.replaceAll(',', ''));
    expect(largest).toBeGreaterThan(30_000);
    expect(resultOf(run, 'payload.ceiling', { limits: { blobLimitBytes: largest } }).status).toBe('fail');
    expect(resultOf(run, 'payload.ceiling', { limits: { blobLimitBytes: largest + 1 } }).status).toBe('pass');
  });

  describe('the payloads offloaded to External Storage', () => {
    /** A two-turn run whose model calls' inputs were offloaded: each reference's driver and the size it states. */
    const offloaded = (...references: [driver: string, size?: number][]) => {
      const histories = structuredClone(new AgentRunHistory().turns(references.length).complete().histories());
      const calls = scheduledOf(histories[0] as never, 'call_model');
      references.forEach(([driver, size], i) => {
        (calls[i] as { input: unknown }).input = { payloads: [referencePayload(driver, `v0/d/sha256/${i}`, size)] };
      });
      return (ctx: CheckContext = {}) => checkRun(histories, ctx).results.find((r) => r.id === 'payload.ceiling') as InvariantResult;
    };

    it('counts a reference that states no size as of unknown size, and adds nothing for it', () => {
      const result = offloaded(['aws.s3driver', 40_000], ['aws.s3driver'])();
      expect(result.status).toBe('pass');
      expect(result.evidence[1]).toMatch(
        /^2 payloads offloaded to External Storage: [\d,]+ bytes of references in the history, 40,000 bytes stored \(1 of unknown size\); largest stored event \d+: ActivityTaskScheduled call_model input\[0\] \(activity input\) 40,000 bytes$/,
      );
      // The largest named wherever it stands.
      expect(offloaded(['aws.s3driver', 2_000], ['aws.s3driver', 40_000])().evidence[1]).toMatch(
        /, 42,000 bytes stored; largest stored event \d+: ActivityTaskScheduled call_model input\[0\] \(activity input\) 40,000 bytes$/,
      );
      expect(offloaded(['aws.s3driver'])().evidence[1]).toMatch(/, 0 bytes stored \(1 of unknown size\)$/);
    });

    it('holds only the S3 driver to its default 50 MiB limit where the context names no store limit', () => {
      const over = 50 * 1024 * 1024 + 1;
      const s3 = offloaded(['aws.s3driver', over])();
      expect(s3.status).toBe('fail');
      expect(s3.evidence[0]).toMatch(
        /^event \d+: ActivityTaskScheduled call_model input\[0\] \(activity input\): stored payload 52,428,801 bytes > the S3 driver's default limit 52,428,800$/,
      );
      expect(offloaded(['aws.s3driver', over - 1])().status).toBe('pass');
      // Another driver's limit is its own: none is known unless the context gives it.
      expect(offloaded(['gcs.driver', over])().status).toBe('pass');
      expect(offloaded(['gcs.driver', over])({ storedPayloadLimitBytes: over - 1 }).status).toBe('fail');
    });

    it("passes a stored payload at exactly the store's limit, and fails one a byte over it", () => {
      const judged = offloaded(['gcs.driver', 3_000_000]);
      expect(judged({ storedPayloadLimitBytes: 3_000_000 }).status).toBe('pass');
      expect(judged({ storedPayloadLimitBytes: 2_999_999 }).evidence[0]).toMatch(
        /: stored payload 3,000,000 bytes > the store's limit 2,999,999$/,
      );
    });
  });
});
