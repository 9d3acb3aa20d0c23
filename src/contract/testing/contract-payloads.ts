/**
 * Reads a history as `temporal workflow show --output json` writes it and checks every payload
 * the contract defines against its schema: the workflow input, and each activity's input and
 * result by activity type. One line per payload that does not conform.
 */
import type { z } from 'zod';
import {
  callModelInputSchema,
  callModelResultSchema,
  compactContextInputSchema,
  compactContextResultSchema,
  journalAppendInputSchema,
  journalAppendResultSchema,
  runInputSchema,
  runToolInputSchema,
  runToolResultSchema,
} from '../contract-schemas.ts';
import { ACTIVITY } from '../kernel-api.ts';

interface JsonPayloads {
  payloads?: { data?: string }[];
}
interface JsonEvent {
  eventId: string;
  workflowExecutionStartedEventAttributes?: { input?: JsonPayloads };
  activityTaskScheduledEventAttributes?: { activityType: { name: string }; input?: JsonPayloads };
  activityTaskCompletedEventAttributes?: { scheduledEventId: string; result?: JsonPayloads };
}

const BY_ACTIVITY: Record<string, { input: z.ZodType; result: z.ZodType }> = {
  [ACTIVITY.callModel]: { input: callModelInputSchema, result: callModelResultSchema },
  [ACTIVITY.compactContext]: { input: compactContextInputSchema, result: compactContextResultSchema },
  [ACTIVITY.runTool]: { input: runToolInputSchema, result: runToolResultSchema },
  [ACTIVITY.journalAppend]: { input: journalAppendInputSchema, result: journalAppendResultSchema },
};

const decode = (payloads: JsonPayloads | undefined): unknown =>
  JSON.parse(Buffer.from(payloads?.payloads?.[0]?.data ?? '', 'base64').toString('utf8'));

export interface PayloadCheck {
  /** Payloads checked. */
  checked: number;
  problems: string[];
}

export function checkContractPayloads(history: { events: readonly JsonEvent[] }, source: string): PayloadCheck {
  let checked = 0;
  const problems: string[] = [];
  const scheduled = new Map<string, string>();
  const check = (schema: z.ZodType | undefined, value: unknown, where: string) => {
    checked++;
    if (!schema) return problems.push(`${source} ${where}: an activity the contract does not name`);
    const result = schema.safeParse(value);
    const issue = result.success ? undefined : result.error.issues[0];
    if (issue) problems.push(`${source} ${where}: ${issue.path.join('.')} ${issue.message}`);
  };
  for (const event of history.events) {
    const started = event.workflowExecutionStartedEventAttributes;
    if (started) check(runInputSchema, decode(started.input), `event ${event.eventId} workflow input`);
    const task = event.activityTaskScheduledEventAttributes;
    if (task) {
      scheduled.set(event.eventId, task.activityType.name);
      check(BY_ACTIVITY[task.activityType.name]?.input, decode(task.input), `event ${event.eventId} ${task.activityType.name} input`);
    }
    const done = event.activityTaskCompletedEventAttributes;
    if (done) {
      const name = scheduled.get(done.scheduledEventId) ?? 'unknown';
      check(BY_ACTIVITY[name]?.result, decode(done.result), `event ${event.eventId} ${name} result`);
    }
  }
  return { checked, problems };
}
