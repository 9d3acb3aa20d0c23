/**
 * The simplest workflow that moves a kernel's payload sizes through the server: it schedules
 * `activities` activities one after another, each with an input of `payloadBytes` (as call_model
 * carries the conversation), and nothing else. Sandboxed workflow code.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { CeilingActivities, CeilingInput } from './ceiling-types.ts';

const { carry } = proxyActivities<CeilingActivities>({ startToCloseTimeout: '1 minute' });

export async function ceilingRun(input: CeilingInput): Promise<number> {
  const payload = 'x'.repeat(input.payloadBytes);
  for (let i = 0; i < input.activities; i++) await carry(payload);
  return input.activities;
}
