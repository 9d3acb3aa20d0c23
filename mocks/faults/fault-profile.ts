/**
 * Fault profiles: which failures the mocks inject, for the agent model, the compaction model
 * and the sandbox separately, and when (by seeded probability, by turn, by call count, by
 * attempt). A rule with several conditions applies when all of them hold; the first rule that
 * applies wins.
 */
import { z } from 'zod';
import { BYTES_PER_TOKEN, CARD_SECTIONS } from '../../src/contract/limits.ts';
import { describeIssue } from '../synthetic/run-shape.ts';

export type CardSection = (typeof CARD_SECTIONS)[number];
export const CARD_UNTIDY_STYLES = ['preamble', 'trailing-spaces'] as const;
export type CardUntidyStyle = (typeof CARD_UNTIDY_STYLES)[number];

const ms = z.number().int().min(0);
const oneBased = z.array(z.number().int().positive());
const retryAfterSeconds = ms.optional().describe('the Retry-After header, seconds');

const faultSpecSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('http-429'), retryAfterSeconds }),
    z.strictObject({ kind: z.literal('http-500') }),
    z.strictObject({ kind: z.literal('http-503'), retryAfterSeconds }),
    z
      .strictObject({
        kind: z.literal('overloaded'),
        retryAfterSeconds,
        midStream: z
          .boolean()
          .optional()
          .describe(
            "on a streamed Anthropic answer: status 200, the stream's start, then an `error` event (as the API fails a stream under load)",
          ),
      })
      .describe("model only: the provider is overloaded (Anthropic's 529 overloaded_error; OpenAI's 503)"),
    z
      .strictObject({
        kind: z.literal('context-length-exceeded'),
        maxTokens: z
          .number()
          .int()
          .positive()
          .optional()
          .describe(`the context window: only requests of more tokens (bytes / ${BYTES_PER_TOKEN}, as usage counts them) are refused`),
      })
      .describe(
        'model only: 400, the request is too long (OpenAI\'s context_length_exceeded; Anthropic\'s invalid_request_error "prompt is too long")',
      ),
    z
      .strictObject({
        kind: z.literal('latency'),
        ms: ms.describe('the delay'),
        jitterMs: ms.optional().describe('plus or minus this (seeded)'),
      })
      .describe('the normal answer after `ms` plus or minus `jitterMs` (seeded)'),
    z
      .strictObject({ kind: z.literal('timeout'), maxHangMs: ms.optional().describe('504 after this long (default 120 s)') })
      .describe('no answer until the client aborts, or 504 after `maxHangMs`'),
    z.strictObject({ kind: z.literal('reset') }).describe('the connection is dropped (a network error for the client)'),
    z.strictObject({ kind: z.literal('malformed-json') }).describe('status 200, application/json, a body that does not parse'),
    z
      .strictObject({ kind: z.literal('truncated-stream') })
      .describe('a stream cut halfway, without finish_reason or [DONE]; a JSON body cut halfway when not streaming'),
    z
      .strictObject({
        kind: z.literal('oversized-card'),
        bytes: z.number().int().positive().optional().describe('the card size (default 1.5 x the card limit)'),
      })
      .describe('compaction only: a card of `bytes`, sections intact'),
    z
      .strictObject({
        kind: z.literal('card-missing-section'),
        section: z.enum(CARD_SECTIONS).optional().describe('the section left out (default: a seeded pick)'),
      })
      .describe('compaction only: a card without `section`'),
    z
      .strictObject({
        kind: z.literal('card-untidy'),
        style: z
          .enum(CARD_UNTIDY_STYLES)
          .describe(
            '`preamble`: a line of text before `## Task` (invalid); `trailing-spaces`: headings ending in spaces (valid once lines are trimmed)',
          ),
      })
      .describe('compaction only: a card wrapped as chat models write one, within the card limit'),
  ])
  .describe('what the mock answers instead');

const faultWhenSchema = z
  .strictObject({
    probability: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe('seeded by (profile seed, target, run, turn, attempt): the same calls fail on every run of a scenario'),
    turns: z
      .union([oneBased, z.strictObject({ from: z.number().int().optional(), to: z.number().int().optional() })])
      .optional()
      .describe('turns (1-based) as a list or an inclusive range {from, to}'),
    calls: oneBased.optional().describe('the nth request to this target (1-based), counted over all runs'),
    attempts: oneBased.optional().describe('the nth attempt at the same run, turn (and tool call), 1-based: [1] fails first tries only'),
    runIds: z.array(z.string()).optional().describe('only these runs'),
  })
  .describe('when the fault applies: every condition given must hold (omitted: every request)');

const faultRuleSchema = z.strictObject({ fault: faultSpecSchema, when: faultWhenSchema.optional() });

const rules = (target: string) => z.array(faultRuleSchema).optional().describe(`rules for the ${target}; the first that applies wins`);
const CARD_FAULTS: readonly FaultKind[] = ['oversized-card', 'card-missing-section', 'card-untidy'];
const MODEL_FAULTS: readonly FaultKind[] = ['overloaded', 'context-length-exceeded'];

/** A scenario's `faults`. */
export const faultProfileSchema = z
  .strictObject({
    seed: z.number().int().min(0).optional().describe('seeds the probabilities (default 0)'),
    agent: rules('agent model'),
    compaction: rules('compaction model'),
    sandbox: rules('sandbox'),
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
    profile.sandbox?.forEach((r, i) => {
      if (MODEL_FAULTS.includes(r.fault.kind)) {
        ctx.addIssue({ code: 'custom', path: ['sandbox', i, 'fault', 'kind'], message: `${r.fault.kind} applies to the model only` });
      }
    });
  })
  .describe('Faults the mocks inject, per target (mocks/faults/fault-profile.ts)');

export type FaultSpec = z.infer<typeof faultSpecSchema>;
export type FaultKind = FaultSpec['kind'];
export type FaultWhen = z.infer<typeof faultWhenSchema>;
export type FaultRule = z.infer<typeof faultRuleSchema>;
export type FaultProfile = z.infer<typeof faultProfileSchema>;

/** The Retry-After a fault's answer carries, in seconds (a 429's defaults to 1), or undefined when it has none. */
export function retryAfterSecondsOf(fault: FaultSpec): number | undefined {
  if (fault.kind === 'http-429') return fault.retryAfterSeconds ?? 1;
  if (fault.kind === 'http-503' || fault.kind === 'overloaded') return fault.retryAfterSeconds;
  return undefined;
}

/** A request's tokens as the mocks count them (usage's prompt tokens, the context window). */
export function tokensOf(requestBytes: number): number {
  return Math.round(requestBytes / BYTES_PER_TOKEN);
}

/** Validates a fault profile; throws one line naming the field. */
export function parseFaultProfile(input: unknown): FaultProfile {
  const parsed = faultProfileSchema.safeParse(input ?? {});
  if (!parsed.success) throw new Error(describeIssue('faults', parsed.error.issues[0]));
  return parsed.data;
}
