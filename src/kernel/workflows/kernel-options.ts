/**
 * What tells the binaries apart. Every binary runs the same workflow code; the broken controls
 * each turn one of these switches, so an invariant that catches them catches exactly one bug.
 */
import type { SizeUnit } from '../context/bytes.ts';
import { type RebuildOptions, SPEC_REBUILD } from '../context/rebuild.ts';

export interface KernelOptions {
  /**
   * How the `context-compaction` gate answers: `patched` (the current binary: open for new
   * runs, closed while replaying a history written without it), `never` (v0).
   */
  gate: 'patched' | 'never';
  rebuild: RebuildOptions;
  /** false: guard-ignores-screenshots. */
  guardCountsScreenshots: boolean;
  /**
   * What the payload guard brings a request under: the blob limit less the envelope's margin, or
   * the margin itself (guard-target-margin, the two helpers mixed up: runs end on small requests).
   */
  guardTarget: 'blob-limit' | 'envelope-margin';
  /** Consecutive boundaries over the trigger before compaction starts: 1, or 2 in trigger-late. */
  triggerBoundaries: number;
  /** The compaction activity's attempts: at most 3, or without bound (compaction-retries-forever). */
  compactionAttempts: 'bounded' | 'unbounded';
  /** What the ContinueAsNew budget counts: this execution's request bytes, or the whole run's (can-budget-per-run). */
  continueAsNewBudget: 'execution' | 'run';
  /** The card limit the activity validates against, as a multiple of the real one (4 in card-unchecked). */
  cardLimitFactor: number;
  /** What request, tail and item sizes count (trigger, budget, guard, rebuild): `utf16-units` only in utf16-sizes. */
  sizeUnit: SizeUnit;
  /**
   * Whether to continue as new also when the history calls for it (the server suggests it, or
   * its length or size passes the kernel's bounds): `never` (v0, v1), `patched` (v2: behind the
   * `continue-as-new-suggested` gate), `always` (the history-ungated control).
   */
  continuesAsNewOnHistory: 'never' | 'patched' | 'always';
  /** The limit the card is validated against: `cardMaxBytes`, or the tail's (card-tail-limit). */
  cardLimit: 'cardMaxBytes' | 'tailMaxBytes';
  /** A request exactly at the trigger compacts too (true only in trigger-inclusive: `>=` for `>`). */
  compactsAtTrigger: boolean;
  /** ContinueAsNew once the execution's request bytes reach the budget (true only in can-at-budget: `>=` for `>`). */
  continuesAsNewAtBudget: boolean;
  /** Only the run's first execution continues as new (true only in can-once). */
  continuesAsNewOnce: boolean;
  /** A card exactly at its limit is rejected too (true only in card-limit-exclusive: `>=` for `>`). */
  rejectsCardAtLimit: boolean;
  /** The compaction input carries the run's settings (false only in compaction-no-settings: the activity throws a TypeError). */
  compactionInputHasSettings: boolean;
  /** context.compacted's `dropped` counts the kept groups too (true only in dropped-counts-kept). */
  droppedCountsKept: boolean;
  /** The run's limits may scale any of them (`partial`, the contract), or must name all (`whole`: limits-whole). */
  runInputLimits: 'partial' | 'whole';
  /** The compaction input may elide assistant texts to fit under the blob limit (false only in compaction-keeps-texts). */
  compactionElidesTexts: boolean;
  /**
   * Who keeps the conversation under the trigger: the kernel, with its state card (`card`,
   * behind the gate), or the provider (`provider`: every request asks the Responses API to
   * compact past the trigger in tokens, and the conversation keeps only what follows the
   * compaction item it answers with; provider-compaction).
   */
  contextManagement: 'card' | 'provider';
  /** The conversation drops what a provider's compaction item stands for (false only in compaction-item-ignored: it keeps sending everything). */
  dropsBeforeCompactionItem: boolean;
}

export const CURRENT_KERNEL: KernelOptions = {
  gate: 'patched',
  rebuild: SPEC_REBUILD,
  guardCountsScreenshots: true,
  guardTarget: 'blob-limit',
  triggerBoundaries: 1,
  compactionAttempts: 'bounded',
  continueAsNewBudget: 'execution',
  cardLimitFactor: 1,
  sizeUnit: 'utf8-bytes',
  continuesAsNewOnHistory: 'never',
  cardLimit: 'cardMaxBytes',
  compactsAtTrigger: false,
  continuesAsNewAtBudget: false,
  continuesAsNewOnce: false,
  rejectsCardAtLimit: false,
  compactionInputHasSettings: true,
  droppedCountsKept: false,
  runInputLimits: 'partial',
  compactionElidesTexts: true,
  contextManagement: 'card',
  dropsBeforeCompactionItem: true,
};
