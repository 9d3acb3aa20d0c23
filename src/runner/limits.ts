/**
 * The limits a scenario's runs are judged against, resolved once from the scenario and the
 * server's dynamic config: the check context reads them and the summary reports them, so the
 * verdict and the report never disagree on a limit.
 */
import type { CheckContext } from '../checks/index.ts';
import {
  BLOB_LIMIT_BYTES,
  COMPACTION_TRIGGER_BYTES,
  CONTINUE_AS_NEW_BYTES,
  HISTORY_COUNT_LIMIT,
  HISTORY_SIZE_LIMIT_BYTES,
} from '../contract/limits.ts';
import type { DynamicConfig } from '../environment/index.ts';
import type { Summary } from '../result/index.ts';
import { durationMs, type Scenario } from '../scenario/scenario-schema.ts';

export type RunLimits = Required<Summary['limits']>;

/** The scenario's kernel limits first, then the server's (`limit.*.error`), then the deployment's. */
export function resolveLimits(scenario: Scenario, dynamicConfig: DynamicConfig | undefined): RunLimits {
  return {
    blobLimitBytes: scenario.limits.blobLimitBytes ?? Number(dynamicConfig?.['limit.blobSize.error'] ?? BLOB_LIMIT_BYTES),
    compactionTriggerBytes: scenario.limits.compactionTriggerBytes ?? COMPACTION_TRIGGER_BYTES,
    continueAsNewBytes: scenario.limits.continueAsNewBytes ?? CONTINUE_AS_NEW_BYTES,
    historySizeLimitBytes: Number(dynamicConfig?.['limit.historySize.error'] ?? HISTORY_SIZE_LIMIT_BYTES),
    historyCountLimit: Number(dynamicConfig?.['limit.historyCount.error'] ?? HISTORY_COUNT_LIMIT),
  };
}

/** What the checks judge a scenario's runs by: its timeout and the resolved limits. */
export function checkContextOf(scenario: Scenario, limits: RunLimits): CheckContext {
  const { historySizeLimitBytes, historyCountLimit, ...kernelLimits } = limits;
  return {
    runTimeoutMs: durationMs(scenario.runs.timeout),
    // The card and tail limits have no server side: the scenario's, or the kernel's own.
    limits: { ...scenario.limits, ...kernelLimits },
    historySizeLimitBytes,
    historyCountLimit,
  };
}
