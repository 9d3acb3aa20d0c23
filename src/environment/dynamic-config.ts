/**
 * Server dynamic config that mirrors the production deployment: the blob limits Temporal ships
 * with, and the history-size limit raised to 500 MiB. Everything else stays at Temporal's defaults.
 */
import { BLOB_LIMIT_BYTES, BLOB_WARN_BYTES, HISTORY_SIZE_LIMIT_BYTES } from '../contract/limits.ts';

export type DynamicConfig = Record<string, string | number | boolean>;

export const PRODUCTION_DYNAMIC_CONFIG: DynamicConfig = {
  'limit.blobSize.error': BLOB_LIMIT_BYTES,
  'limit.blobSize.warn': BLOB_WARN_BYTES,
  'limit.historySize.error': HISTORY_SIZE_LIMIT_BYTES,
};

export function dynamicConfigArgs(config: DynamicConfig): string[] {
  return Object.entries(config).flatMap(([key, value]) => ['--dynamic-config-value', `${key}=${JSON.stringify(value)}`]);
}
