/** The `type` of every ApplicationFailure the kernel raises; workflow-safe. */
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
