/**
 * The `type` of every ApplicationFailure a kernel may end a run with: the reasons the contract
 * names. A run that fails for another reason did not end the way the contract allows
 * (`run.liveness`). Workflow-safe.
 */
export const FAILURE_TYPE = {
  /** The current binary's guard cannot bring a payload under the blob limit: the run ends. */
  payloadGuard: 'PayloadGuard',
  invalidRunInput: 'InvalidRunInput',
  /** Only the compaction-fatal control ends a run on a failed compaction. */
  compactionFailed: 'CompactionFailed',
  /** 4xx other than 429 from the model or the sandbox: retrying would get the same answer. */
  httpRejected: 'HttpRejected',
  /** 429, 5xx, network errors and timeouts: worth another attempt. */
  httpUnavailable: 'HttpUnavailable',
  malformedResponse: 'MalformedResponse',
  invalidCard: 'InvalidCard',
  invalidJournal: 'InvalidJournal',
} as const;

export const FAILURE_TYPES: readonly string[] = Object.values(FAILURE_TYPE);
