/**
 * The server's limits as `check` and `forecast` both take them: the same flags, the same defaults
 * (src/checks/server-limits.ts; a mapping's blob limit), and the same line printed first, so one
 * history is judged and forecast by one set of limits, and each says which.
 */
import { type KernelMapping, SERVER_LIMITS, type ServerLimits } from '../../checks/index.ts';
import { formatBytes, formatCount } from '../../report/index.ts';
import { valueFlag, wholeNumber } from '../flags.ts';

export function bytesFlag(help: string) {
  return valueFlag({ value: 'N', help, parse: wholeNumber(1), want: 'a positive whole number of bytes' });
}

export const SERVER_LIMIT_FLAGS = {
  'blob-limit': bytesFlag(
    `the server's limit.blobSize.error (default ${formatBytes(SERVER_LIMITS.blobLimitBytes)}, or the mapping's blobLimitBytes)`,
  ),
  'history-size-limit': bytesFlag(
    `the server's limit.historySize.error (default ${formatBytes(SERVER_LIMITS.historySizeLimitBytes)}, the deployment's; Temporal's own is 50 MiB)`,
  ),
  'history-count-limit': valueFlag({
    value: 'N',
    help: `the server's limit.historyCount.error (default ${formatCount(SERVER_LIMITS.historyCountLimit)} events)`,
    parse: wholeNumber(1),
    want: 'a positive whole number of events',
  }),
};

export interface ServerLimitValues {
  'blob-limit'?: number | undefined;
  'history-size-limit'?: number | undefined;
  'history-count-limit'?: number | undefined;
}

/** The flags given, else the defaults: a mapping's blob limit, the deployment's history limits. */
export function serverLimitsOf(values: ServerLimitValues, mapping: KernelMapping | undefined): ServerLimits {
  return {
    blobLimitBytes: values['blob-limit'] ?? mapping?.limits.blobLimitBytes ?? SERVER_LIMITS.blobLimitBytes,
    historySizeLimitBytes: values['history-size-limit'] ?? SERVER_LIMITS.historySizeLimitBytes,
    historyCountLimit: values['history-count-limit'] ?? SERVER_LIMITS.historyCountLimit,
  };
}

/** "server limits: blob 2 MiB, history size 500 MiB, history count 51,200 events". */
export function serverLimitsLine(limits: ServerLimits): string {
  return `server limits: blob ${formatBytes(limits.blobLimitBytes)}, history size ${formatBytes(limits.historySizeLimitBytes)}, history count ${formatCount(limits.historyCountLimit)} events`;
}
