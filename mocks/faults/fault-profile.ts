/**
 * Fault profiles: which failures the mocks inject, for the agent model, the compaction model
 * and the sandbox separately, and when (by seeded probability, by turn, by call count, by
 * attempt). A rule with several conditions applies when all of them hold; the first rule that
 * applies wins.
 */
import { z } from 'zod';
import { CARD_SECTIONS } from '../../src/contract/limits.ts';
import { describeIssue } from '../synthetic/run-shape.ts';

export type CardSection = (typeof CARD_SECTIONS)[number];

export type FaultSpec =
  | { kind: 'http-429'; retryAfterSeconds?: number }
  | { kind: 'http-500' }
  | { kind: 'http-503'; retryAfterSeconds?: number }
  /** The normal answer after `ms` plus or minus `jitterMs` (seeded). */
  | { kind: 'latency'; ms: number; jitterMs?: number }
  /** No answer until the client aborts, or 504 after `maxHangMs` (default 120 s). */
  | { kind: 'timeout'; maxHangMs?: number }
  /** The connection is dropped (a network error for the client). */
  | { kind: 'reset' }
  /** Status 200, application/json, a body that does not parse. */
  | { kind: 'malformed-json' }
  /** A stream cut halfway, without finish_reason or [DONE]; a JSON body cut halfway when not streaming. */
  | { kind: 'truncated-stream' }
  /** Compaction only: a card of `bytes` (default 1.5 x the card limit), sections intact. */
  | { kind: 'oversized-card'; bytes?: number }
  /** Compaction only: a card without `section` (default: a seeded pick). */
  | { kind: 'card-missing-section'; section?: CardSection };

export type FaultKind = FaultSpec['kind'];

export interface FaultWhen {
  /** Seeded by (profile seed, target, run, turn, attempt): the same calls fail on every run of a scenario. */
  probability?: number;
  /** Turns (1-based) as a list or an inclusive range. */
  turns?: number[] | { from?: number; to?: number };
  /** The nth request to this target (1-based), counted over all runs. */
  calls?: number[];
  /** The nth attempt at the same run, turn (and tool call), 1-based: [1] fails first tries only. */
  attempts?: number[];
  runIds?: string[];
}

export interface FaultRule {
  fault: FaultSpec;
  /** Omitted: every request. */
  when?: FaultWhen;
}

export interface FaultProfile {
  seed?: number;
  agent?: FaultRule[];
  compaction?: FaultRule[];
  sandbox?: FaultRule[];
}

const ms = z.number().int().min(0);
const oneBased = z.array(z.number().int().positive());
const spec = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('http-429'),
    retryAfterSeconds: ms.optional(),
  }),
  z.strictObject({ kind: z.literal('http-500') }),
  z.strictObject({
    kind: z.literal('http-503'),
    retryAfterSeconds: ms.optional(),
  }),
  z.strictObject({ kind: z.literal('latency'), ms, jitterMs: ms.optional() }),
  z.strictObject({ kind: z.literal('timeout'), maxHangMs: ms.optional() }),
  z.strictObject({ kind: z.literal('reset') }),
  z.strictObject({ kind: z.literal('malformed-json') }),
  z.strictObject({ kind: z.literal('truncated-stream') }),
  z.strictObject({
    kind: z.literal('oversized-card'),
    bytes: z.number().int().positive().optional(),
  }),
  z.strictObject({
    kind: z.literal('card-missing-section'),
    section: z.enum(CARD_SECTIONS).optional(),
  }),
]);
const rule = z.strictObject({
  fault: spec,
  when: z
    .strictObject({
      probability: z.number().min(0).max(1).optional(),
      turns: z
        .union([
          oneBased,
          z.strictObject({
            from: z.number().int().optional(),
            to: z.number().int().optional(),
          }),
        ])
        .optional(),
      calls: oneBased.optional(),
      attempts: oneBased.optional(),
      runIds: z.array(z.string()).optional(),
    })
    .optional(),
});
const CARD_FAULTS: readonly FaultKind[] = ['oversized-card', 'card-missing-section'];
const profileSchema = z
  .strictObject({
    seed: z.number().int().min(0).optional(),
    agent: z.array(rule).optional(),
    compaction: z.array(rule).optional(),
    sandbox: z.array(rule).optional(),
  })
  .superRefine((profile, ctx) => {
    for (const target of ['agent', 'sandbox'] as const) {
      profile[target]?.forEach((r, i) => {
        if (CARD_FAULTS.includes(r.fault.kind)) {
          ctx.addIssue({
            code: 'custom',
            path: [target, i, 'fault', 'kind'],
            message: `${r.fault.kind} applies to the compaction model only`,
          });
        }
      });
    }
  });

/** Validates a fault profile; throws one line naming the field. */
export function parseFaultProfile(input: unknown): FaultProfile {
  const parsed = profileSchema.safeParse(input ?? {});
  if (!parsed.success) throw new Error(describeIssue('faults', parsed.error.issues[0]));
  return parsed.data as FaultProfile;
}
