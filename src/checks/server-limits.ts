/**
 * The server's error limits: those `check` judges a history by (the check context's defaults)
 * and `forecast` carries it to, so the two never disagree.
 */
import { BLOB_LIMIT_BYTES, HISTORY_COUNT_LIMIT, HISTORY_SIZE_LIMIT_BYTES } from '../contract/limits.ts';

export interface ServerLimits {
  /** `limit.blobSize.error` */
  blobLimitBytes: number;
  /** `limit.historySize.error` */
  historySizeLimitBytes: number;
  /** `limit.historyCount.error` */
  historyCountLimit: number;
}

/** The deployment's (deploy/temporal/dynamicconfig/longrun.yaml: blob 2 MiB, history size 500 MiB; Temporal's 51,200 events). */
export const SERVER_LIMITS: Readonly<ServerLimits> = {
  blobLimitBytes: BLOB_LIMIT_BYTES,
  historySizeLimitBytes: HISTORY_SIZE_LIMIT_BYTES,
  historyCountLimit: HISTORY_COUNT_LIMIT,
};
