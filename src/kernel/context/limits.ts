/**
 * The limits a run works with: the spec's defaults, scaled down per run when `RunInput.limits`
 * says so, and the two numbers the payload guard derives from the blob limit.
 */
import type { KernelLimits } from '../../contract/kernel-api.ts';
import {
  BLOB_LIMIT_BYTES,
  CARD_MAX_BYTES,
  COMPACTION_TRIGGER_BYTES,
  CONTINUE_AS_NEW_BYTES,
  TAIL_MAX_BYTES,
} from '../../contract/limits.ts';

export const DEFAULT_LIMITS: KernelLimits = {
  blobLimitBytes: BLOB_LIMIT_BYTES,
  compactionTriggerBytes: COMPACTION_TRIGGER_BYTES,
  continueAsNewBytes: CONTINUE_AS_NEW_BYTES,
  cardMaxBytes: CARD_MAX_BYTES,
  tailMaxBytes: TAIL_MAX_BYTES,
};

const LIMIT_FIELDS = Object.keys(DEFAULT_LIMITS) as (keyof KernelLimits)[];

/** Defaults overlaid with the run's overrides; throws naming the first bad field. */
export function resolveLimits(overrides: Partial<KernelLimits> | undefined): KernelLimits {
  if (overrides === undefined) return { ...DEFAULT_LIMITS };
  if (overrides === null || typeof overrides !== 'object') throw new Error('limits must be an object');
  for (const field of Object.keys(overrides)) {
    if (!LIMIT_FIELDS.includes(field as keyof KernelLimits)) throw new Error(`limits.${field} is not a known limit`);
  }
  const limits = { ...DEFAULT_LIMITS };
  for (const field of LIMIT_FIELDS) {
    const value = overrides[field];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new Error(`limits.${field} must be a positive integer, got ${JSON.stringify(value)}`);
    }
    limits[field] = value;
  }
  return limits;
}

/**
 * Room left in a payload for what Temporal wraps around it (activity envelope, payload
 * metadata): 1/32 of the blob limit, 64 KiB at 2 MiB.
 */
export function envelopeMarginBytes(limits: KernelLimits): number {
  return Math.ceil(limits.blobLimitBytes / 32);
}

/** The largest serialized request the guard lets through. */
export function guardTargetBytes(limits: KernelLimits): number {
  return limits.blobLimitBytes - envelopeMarginBytes(limits);
}

/**
 * v0's notion of a "big item": above 1/16 of the blob limit (128 KiB at 2 MiB), which a
 * screenshot passes and an ordinary tool output does not.
 */
export function bigItemThresholdBytes(limits: KernelLimits): number {
  return Math.floor(limits.blobLimitBytes / 16);
}
