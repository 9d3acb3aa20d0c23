/** The kernel's activities, keyed by their activity types, for `Worker.create({ activities })`. */
import { ACTIVITY } from '../../contract/kernel-api.ts';
import { callModel } from './call-model.ts';
import { compactContext } from './compact-context.ts';
import { type ActivitiesConfig, checkConfig } from './config.ts';
import { journalAppend } from './journal-append.ts';
import { runTool } from './run-tool.ts';
import type { KernelActivities } from './types.ts';

export { compactionModel } from './compact-context.ts';
export {
  type ActivitiesConfig,
  DEFAULT_HTTP_TIMEOUTS,
  type HttpTimeouts,
} from './config.ts';
export { MAX_RETRY_AFTER_MS, retryAfterMs } from './http.ts';
export type { KernelActivities } from './types.ts';

export function createActivities(config: ActivitiesConfig): KernelActivities {
  checkConfig(config);
  return {
    [ACTIVITY.callModel]: (input) => callModel(config, input),
    [ACTIVITY.compactContext]: (input) => compactContext(config, input),
    [ACTIVITY.runTool]: (input) => runTool(config, input),
    [ACTIVITY.journalAppend]: journalAppend,
  };
}
