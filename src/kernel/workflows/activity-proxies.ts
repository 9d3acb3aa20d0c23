/**
 * How the workflow schedules each activity: timeouts and retry policies. A failing compaction
 * model costs bounded time (3 short attempts) and then the workflow carries on without it.
 */
import { proxyActivities } from '@temporalio/workflow';
import { ACTIVITY } from '../../contract/kernel-api.ts';
import type { KernelActivities } from '../activities/types.ts';

/** Retries 429/5xx/timeouts (the activity passes Retry-After on as the next delay); 4xx is final. */
export const callModel = proxyActivities<KernelActivities>({
  startToCloseTimeout: '2 minutes',
  retry: {
    initialInterval: '1s',
    backoffCoefficient: 2,
    maximumInterval: '30s',
    maximumAttempts: 8,
  },
})[ACTIVITY.callModel];

export const compactContext = proxyActivities<KernelActivities>({
  startToCloseTimeout: '30s',
  retry: {
    initialInterval: '250ms',
    backoffCoefficient: 2,
    maximumInterval: '1s',
    maximumAttempts: 3,
  },
})[ACTIVITY.compactContext];

export const runTool = proxyActivities<KernelActivities>({
  startToCloseTimeout: '90s',
  retry: {
    initialInterval: '500ms',
    backoffCoefficient: 2,
    maximumInterval: '10s',
    maximumAttempts: 5,
  },
})[ACTIVITY.runTool];

export const journalAppend = proxyActivities<KernelActivities>({
  startToCloseTimeout: '10s',
  retry: {
    initialInterval: '200ms',
    backoffCoefficient: 2,
    maximumInterval: '2s',
    maximumAttempts: 10,
  },
})[ACTIVITY.journalAppend];
