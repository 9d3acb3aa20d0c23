import { describe, expect, it } from 'vitest';
import { AgentRunHistory, resultOf, SMALL_LIMITS } from '../testing/index.ts';

describe('payload.ceiling', () => {
  it('passes when every payload stays under the blob limit', () => {
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).play(12).complete();
    const result = resultOf(run, 'payload.ceiling');
    expect(result.status).toBe('pass');
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
});
