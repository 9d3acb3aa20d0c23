import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { contractJsonSchemaText } from './contract-json-schema.ts';
import {
  CONTRACT_SCHEMAS,
  callModelInputSchema,
  callModelResultSchema,
  compactContextInputSchema,
  compactContextResultSchema,
  journalAppendInputSchema,
  journalAppendResultSchema,
  runInputSchema,
  runToolInputSchema,
  runToolResultSchema,
} from './contract-schemas.ts';
import { ACTIVITY } from './kernel-api.ts';

const CORPUS = fileURLToPath(new URL('../../test/corpus/', import.meta.url));
const FILE = fileURLToPath(new URL('../../contract/kernel-contract.schema.json', import.meta.url));

describe('the language-neutral contract', () => {
  it('is up to date with the zod schemas (run `npm run schema` when this fails)', () => {
    expect(readFileSync(FILE, 'utf8')).toBe(contractJsonSchemaText());
  });

  it('names every activity with its payloads, and every payload it names is defined', () => {
    const schema = JSON.parse(contractJsonSchemaText());
    expect(Object.keys(schema.activities)).toEqual(['call_model', 'kernel.compact_context', 'run_tool', 'journal.append']);
    const refs = [...contractJsonSchemaText().matchAll(/"#\/\$defs\/(\w+)"/g)].map((m) => m[1]);
    expect(refs.every((name) => name && name in schema.$defs)).toBe(true);
    expect(Object.keys(schema.$defs)).toEqual(Object.keys(CONTRACT_SCHEMAS));
  });

  it('accepts what the kernel sends and refuses what it never would', () => {
    const input = { runId: 'r', systemPrompt: 's', userRequest: 'u', settings: { agent: { model: 'm' } }, maxTurns: 5 };
    expect(runInputSchema.safeParse(input).success).toBe(true);
    expect(runInputSchema.safeParse({ ...input, maxTurns: 0 }).success).toBe(false);
    expect(
      runInputSchema.safeParse({ ...input, resume: { messages: [], counters: {}, journal: { nextSeq: 1, headHash: 'x' } } }).success,
    ).toBe(false);
  });
});

interface JsonPayloads {
  payloads?: { data?: string }[];
}
interface JsonEvent {
  eventId: string;
  workflowExecutionStartedEventAttributes?: { input?: JsonPayloads };
  activityTaskScheduledEventAttributes?: { activityType: { name: string }; input?: JsonPayloads };
  activityTaskCompletedEventAttributes?: { scheduledEventId: string; result?: JsonPayloads };
}

const decode = (payloads: JsonPayloads | undefined): unknown =>
  JSON.parse(Buffer.from(payloads?.payloads?.[0]?.data ?? '', 'base64').toString('utf8'));

const BY_ACTIVITY: Record<string, [z.ZodType, z.ZodType]> = {
  [ACTIVITY.callModel]: [callModelInputSchema, callModelResultSchema],
  [ACTIVITY.compactContext]: [compactContextInputSchema, compactContextResultSchema],
  [ACTIVITY.runTool]: [runToolInputSchema, runToolResultSchema],
  [ACTIVITY.journalAppend]: [journalAppendInputSchema, journalAppendResultSchema],
};

describe('the recorded corpus, read through the contract', () => {
  it('has every workflow input and every activity input and result of every release valid against its schema', () => {
    let checked = 0;
    const problems: string[] = [];
    for (const release of readdirSync(CORPUS).filter((entry) => /^v\d+$/.test(entry))) {
      for (const file of readdirSync(join(CORPUS, release)).filter((name) => name.endsWith('.json.gz'))) {
        const { events } = JSON.parse(gunzipSync(readFileSync(join(CORPUS, release, file))).toString('utf8')) as { events: JsonEvent[] };
        const scheduled = new Map<string, string>();
        const check = (schema: z.ZodType, value: unknown, where: string) => {
          checked++;
          const result = schema.safeParse(value);
          if (!result.success)
            problems.push(`${release}/${file} ${where}: ${result.error.issues[0]?.path.join('.')} ${result.error.issues[0]?.message}`);
        };
        for (const event of events) {
          const started = event.workflowExecutionStartedEventAttributes;
          if (started) check(runInputSchema, decode(started.input), `event ${event.eventId} RunInput`);
          const task = event.activityTaskScheduledEventAttributes;
          if (task) {
            scheduled.set(event.eventId, task.activityType.name);
            check(
              (BY_ACTIVITY[task.activityType.name] as [z.ZodType, z.ZodType])[0],
              decode(task.input),
              `event ${event.eventId} ${task.activityType.name} input`,
            );
          }
          const done = event.activityTaskCompletedEventAttributes;
          if (done) {
            const name = scheduled.get(done.scheduledEventId) as string;
            check((BY_ACTIVITY[name] as [z.ZodType, z.ZodType])[1], decode(done.result), `event ${event.eventId} ${name} result`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });
});
