/**
 * Every number of the compaction spec (docs/spec/compaction.md), in one place.
 * Workflow-safe: no imports, no I/O.
 */

/** Temporal's `limit.blobSize.error`: one payload at or above it fails the workflow task. */
export const BLOB_LIMIT_BYTES = 2 * 1024 * 1024;
/** Temporal's `limit.blobSize.warn` as the deployment sets it. */
export const BLOB_WARN_BYTES = 512 * 1024;
/** `limit.historySize.error` in the deployment (Temporal's own default is 50 MiB). */
export const HISTORY_SIZE_LIMIT_BYTES = 500 * 1024 * 1024;
/** Temporal's default `limit.historyCount.error`, which the deployment keeps: events per execution. */
export const HISTORY_COUNT_LIMIT = 51_200;

/** Compaction starts when the serialized request is larger than this (1.2 MB). */
export const COMPACTION_TRIGGER_BYTES = 1_200_000;
/** The state card: at most 8 KB. */
export const CARD_MAX_BYTES = 8 * 1024;
/** The six sections of a state card, in this order, each exactly once. */
export const CARD_SECTIONS = [
  '## Task',
  '## Decisions',
  '## Files and artifacts',
  '## Verified',
  '## Open questions',
  '## Next step',
] as const;
/**
 * The compaction model reads a digest in which every message is capped to its head and tail:
 * the identifiers a card must keep verbatim are those the digest shows.
 */
export const DIGEST_MESSAGE_HEAD_BYTES = 1024;
export const DIGEST_MESSAGE_TAIL_BYTES = 1024;
/** The verbatim tail after a rebuild: 2 to 8 whole turn groups, at most 256 KB. */
export const TAIL_MIN_GROUPS = 2;
export const TAIL_MAX_GROUPS = 8;
export const TAIL_MAX_BYTES = 256 * 1024;

/** ContinueAsNew once this many request bytes have accumulated in one execution (128 MiB). */
export const CONTINUE_AS_NEW_BYTES = 128 * 1024 * 1024;

/** Bytes per token of the production payload (the spec measured 2.4 to 3.0). */
export const BYTES_PER_TOKEN = 2.7;

/** The version gate of compaction, rebuild and ContinueAsNew. */
export const COMPACTION_PATCH_ID = 'context-compaction';

/**
 * v2's own bounds on the history, past which it continues as new even when the server does not
 * suggest it (a server with `limit.history*.suggestContinueAsNew` raised, or one older than 1.20):
 * four fifths of the deployment's limits, so that the turn in flight still fits.
 */
export const CONTINUE_AS_NEW_HISTORY_EVENTS = (HISTORY_COUNT_LIMIT * 4) / 5;
export const CONTINUE_AS_NEW_HISTORY_BYTES = (HISTORY_SIZE_LIMIT_BYTES * 4) / 5;
/** The version gate of v2's ContinueAsNew on the history's length and size, so that v1 histories replay unchanged. */
export const HISTORY_PRESSURE_PATCH_ID = 'continue-as-new-suggested';
