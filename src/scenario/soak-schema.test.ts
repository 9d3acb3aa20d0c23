import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { arrivalSchedule } from '../load/ramp.ts';
import { durationMs, durationSchema } from './scenario-schema.ts';
import { rampOf, rampSchemaWith, soakSchemaWith } from './soak-schema.ts';

/** As scenario-schema.ts would plug them in. */
const scenarioPart = z.strictObject({
  runs: z.strictObject({ ramp: rampSchemaWith(durationSchema).optional() }),
  soak: soakSchemaWith(durationSchema).optional(),
});

function firstIssue(value: unknown): string {
  const result = scenarioPart.safeParse(value);
  if (result.success) throw new Error('expected a failure');
  const issue = result.error.issues[0];
  return `${issue?.path.join('.')}: ${issue?.message}`;
}

describe('the soak and ramp schema fragments', () => {
  it('parse what a scenario file says, with durations in the scenario vocabulary', () => {
    const parsed = scenarioPart.parse({
      runs: {
        ramp: {
          stages: [
            { duration: '2m', target: 2 },
            { duration: 90_000, target: 2 },
            { duration: '30s', target: 0 },
          ],
        },
      },
      soak: { minTurnsPerSecond: 3, maxP99LatencyMs: 4000, maxRssGrowthMbPerHour: { worker: 50, server: 100 }, warmup: '2m' },
    });
    expect(parsed.soak).toEqual({
      minTurnsPerSecond: 3,
      maxP99LatencyMs: 4000,
      maxRssGrowthMbPerHour: { worker: 50, server: 100 },
      warmup: '2m',
    });
    const ramp = rampOf(parsed.runs.ramp ?? { startRate: 0, stages: [] }, durationMs);
    expect(ramp).toEqual({
      startRate: 0,
      stages: [
        { durationMs: 120_000, target: 2 },
        { durationMs: 90_000, target: 2 },
        { durationMs: 30_000, target: 0 },
      ],
    });
    // 0 -> 2 over 120 s, 2 for 90 s, 2 -> 0 over 30 s: 120 + 180 + 30 runs.
    expect(arrivalSchedule(ramp).arrivals).toBe(330);
    expect(scenarioPart.parse({ runs: {}, soak: { maxRssGrowthMbPerHour: 25 } }).soak?.maxRssGrowthMbPerHour).toBe(25);
  });

  it('name the field of what is wrong', () => {
    expect(firstIssue({ runs: { ramp: { stages: [{ duration: '2 minutes', target: 1 }] } } })).toBe(
      'runs.ramp.stages.0.duration: a duration like 500ms, 90s, 10m or 1h',
    );
    expect(firstIssue({ runs: { ramp: { stages: [] } } })).toMatch(/^runs\.ramp\.stages: /);
    expect(firstIssue({ runs: { ramp: { stages: [{ duration: '1m', target: -1 }] } } })).toMatch(/^runs\.ramp\.stages\.0\.target: /);
    expect(firstIssue({ runs: {}, soak: { minTurnsPerSecond: 0 } })).toMatch(/^soak\.minTurnsPerSecond: /);
    expect(firstIssue({ runs: {}, soak: { maxP99: 10 } })).toMatch(/^soak: .*maxP99/);
    expect(firstIssue({ runs: {}, soak: { maxRssGrowthMbPerHour: { workers: 1 } } })).toMatch(/^soak\.maxRssGrowthMbPerHour/);
    expect(firstIssue({ runs: {}, soak: { warmup: 'soon' } })).toBe('soak.warmup: a duration like 500ms, 90s, 10m or 1h');
  });

  it('turn into JSON Schema for editors, descriptions included', () => {
    const schema = JSON.stringify(z.toJSONSchema(scenarioPart, { io: 'input' }));
    expect(schema).toContain('ramping-arrival-rate');
    expect(schema).toContain('MiB per hour');
    expect(schema).toContain('a duration like 500ms, 90s, 10m or 1h');
  });
});
