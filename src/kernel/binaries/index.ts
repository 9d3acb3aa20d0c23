/**
 * The binary registry: one workflow bundle per kernel version. Every entry exports `agentRun`,
 * so workers of different binaries can replace each other in the middle of a run.
 */
import { z } from 'zod';
import { siblingModule } from '../../shared/package-paths.ts';
import { CONTROL_PATCHES } from './control-patches.ts';
import type { SourceEdit } from './source-patch.ts';

export const BINARY_IDS = [
  'v0',
  'v1',
  'v2',
  'ungated',
  'can-while-pending',
  'split-group',
  'guard-ignores-screenshots',
  'trigger-late',
  'compaction-fatal',
  'card-unchecked',
  'compaction-retries-forever',
  'can-budget-per-run',
  'utf16-sizes',
  'history-ungated',
  'tail-nine-groups',
  'tail-one-group',
  'tail-cap-off-by-one',
  'tail-keeps-texts',
  'card-tail-limit',
  'trigger-inclusive',
  'can-at-budget',
  'can-once',
  'card-limit-exclusive',
  'compaction-no-settings',
  'dropped-counts-kept',
  'guard-target-margin',
  'limits-whole',
  'compaction-keeps-texts',
  'digest-in-units',
  'compaction-sees-screenshots',
  'compaction-on-agent-model',
  'card-in-units',
  'v0-offload',
  'v1-offload',
  'provider-compaction',
  'compaction-item-ignored',
  'tail-counts-twice',
  'elision-smallest-first',
  'digest-drops-system',
  'digest-drops-texts',
  'digest-drops-tool-results',
] as const;
export type BinaryId = (typeof BINARY_IDS)[number];
/** A binary named in a scenario or a result: the one schema, so naming other binaries is one edit. */
export const binaryIdSchema = z.enum(BINARY_IDS);

/**
 * A binary a scenario or a result names: one of ours (a BinaryId), or a foreign worker's, named
 * by the scenario's target.external ("go-v1"). Editors still complete ours.
 */
export type BinaryName = BinaryId | (string & {});
export const binaryNameSchema: z.ZodType<BinaryName> = z.string().min(1);

export const CURRENT_BINARY = 'v1' satisfies BinaryId;

/**
 * The release line, oldest first: each one's histories must replay on every later one. The
 * broken controls are not on it: each is a release (`base`, CURRENT_BINARY unless it says) with
 * one switch turned.
 */
export const RELEASES = ['v0', 'v1', 'v2'] as const satisfies readonly BinaryId[];

export interface Binary {
  id: BinaryId;
  description: string;
  /** Absolute path of the binary's entry file, for bundleWorkflowCode (a patched control's: its base's, in the unpatched kernel). */
  workflowsPath: string;
  /** A deliberately broken control that some invariant must catch. */
  broken: boolean;
  /**
   * The release it is built on: a broken control's, the release it breaks (CURRENT_BINARY unless it
   * says); an offloading binary's, the release whose workflow it runs; provider-compaction's, the
   * release whose loop and guard it keeps.
   */
  base?: BinaryId;
  /**
   * A control that is a change of the kernel's source (control-patches.ts): its workflow is
   * `base`'s entry in a copy of the kernel with these edits applied.
   */
  patch?: readonly SourceEdit[];
  /** A control broken in its activities, not its workflow: what its workers' activities are configured with. */
  activityControls?: ActivityControls;
  /**
   * Its workers offload every payload over the threshold to External Storage (the SDK's own, with
   * the S3 driver, in the store the runner starts): the release `base` with a claim check.
   */
  offload?: true;
}

/** The activities' settings a broken control may turn (its workflow is the release's): `ActivitiesConfig`'s fields of the same names. */
export interface ActivityControls {
  digestWindowUnit?: 'utf16-units';
  compactionScreenshots?: 'sent';
  compactionModelRole?: 'agent';
  cardSizeUnit?: 'utf16-units';
  digestLeavesOut?: 'system-messages' | 'assistant-texts' | 'tool-results';
}

const DESCRIPTIONS: Record<BinaryId, Omit<Binary, 'id' | 'workflowsPath'>> = {
  v0: {
    broken: false,
    description: 'before compaction: append-only history, payload guard and elision of big items',
  },
  v1: {
    broken: false,
    description: 'current: compaction, rebuild and ContinueAsNew behind the context-compaction gate',
  },
  v2: {
    broken: false,
    description: 'v1, and ContinueAsNew when Temporal suggests it or the history passes its bounds, behind its own gate',
  },
  'v0-offload': {
    broken: false,
    base: 'v0',
    offload: true,
    description: "v0's append-only loop, and payloads over the threshold offloaded to External Storage (Temporal's recommendation)",
  },
  'v1-offload': {
    broken: false,
    base: 'v1',
    offload: true,
    description: 'v1 (compaction, rebuild, ContinueAsNew), and payloads over the threshold offloaded to External Storage',
  },
  'provider-compaction': {
    broken: false,
    base: 'v0',
    description:
      "v0's append-only loop and payload guard, no state card: the provider compacts past the trigger (OpenAI Responses' context_management) and the conversation drops what its compaction item stands for",
  },
  'compaction-item-ignored': {
    broken: true,
    base: 'provider-compaction',
    description:
      "provider-compaction that ignores the provider's compaction item: it keeps sending everything, and the requests pass the blob limit as v0's do",
  },
  ungated: {
    broken: true,
    description: 'compaction without the gate: v0 histories that crossed the trigger do not replay',
  },
  'can-while-pending': {
    broken: true,
    description: 'ContinueAsNew while journal appends are pending; the carried journal head is stale',
  },
  'split-group': {
    broken: true,
    description: 'the rebuild splits a turn group: tool results without their assistant message',
  },
  'guard-ignores-screenshots': {
    broken: true,
    description: 'the payload guard neither counts nor elides screenshots',
  },
  'trigger-late': {
    broken: true,
    description: 'compaction starts one turn boundary after the request passed the trigger',
  },
  'compaction-fatal': {
    broken: true,
    description: 'a failed compaction ends the run',
  },
  'card-unchecked': {
    broken: true,
    description: 'the card is checked against four times its limit: oversized cards replace the history',
  },
  'compaction-retries-forever': {
    broken: true,
    description: 'the compaction activity has no attempt bound: a compaction model that keeps failing stalls the run',
  },
  'can-budget-per-run': {
    broken: true,
    description: 'the ContinueAsNew budget counts the whole run: once passed, every execution continues as new at once',
  },
  'utf16-sizes': {
    broken: true,
    description: 'sizes count UTF-16 code units (string.length), not UTF-8 bytes: non-ASCII requests pass the trigger uncompacted',
  },
  'history-ungated': {
    broken: true,
    base: 'v2',
    description: "v2's ContinueAsNew on the history without its gate: v1 histories the server suggested it in do not replay",
  },
  'tail-nine-groups': {
    broken: true,
    description: 'the rebuild keeps up to 9 whole turn groups in the tail when they fit (the spec: at most 8)',
  },
  'tail-one-group': {
    broken: true,
    description: 'the rebuild keeps at least 1 turn group, not 2: when the last two pass the tail cap, one is kept',
  },
  'tail-cap-off-by-one': {
    broken: true,
    description: 'the rebuild counts the tail one byte short: a group that passes the cap by one byte is kept, then elided into',
  },
  'tail-keeps-texts': {
    broken: true,
    description: 'the rebuild never elides assistant texts in a tail over the cap: two groups whose texts pass the cap stay over it',
  },
  'tail-counts-twice': {
    broken: true,
    description: 'the rebuild counts each group of the tail twice against its cap: it keeps fewer whole groups than fit',
  },
  'elision-smallest-first': {
    broken: true,
    description:
      'the guard and the tail take the smallest items first: every small tool output goes before the one big item that would have been enough',
  },
  'digest-drops-system': {
    broken: true,
    description:
      'the digest leaves out system messages: the compaction model never sees the earlier card, so each card forgets all before the previous one',
    activityControls: { digestLeavesOut: 'system-messages' },
  },
  'digest-drops-texts': {
    broken: true,
    description: "the digest leaves out the assistant's texts: the compaction model never reads what the agent said it did",
    activityControls: { digestLeavesOut: 'assistant-texts' },
  },
  'digest-drops-tool-results': {
    broken: true,
    description: "the digest leaves out the tools' results: the card never carries what the tools returned",
    activityControls: { digestLeavesOut: 'tool-results' },
  },
  'card-tail-limit': {
    broken: true,
    description: "the card is checked against the tail's limit, not the card's: where the tail may be larger, oversized cards get in",
  },
  'trigger-inclusive': {
    broken: true,
    description: 'a request exactly at the trigger compacts (>= for >)',
  },
  'can-at-budget': {
    broken: true,
    description: "ContinueAsNew once the execution's request bytes reach the budget, not exceed it (>= for >)",
  },
  'can-once': {
    broken: true,
    description: 'only the first execution continues as new: resumed executions send past the budget',
  },
  'card-limit-exclusive': {
    broken: true,
    description: 'a card of exactly the card limit is rejected as oversized (>= for >): every compaction answered at the limit fails',
  },
  'compaction-no-settings': {
    broken: true,
    description:
      "the compaction input leaves out the run's settings: the activity throws a TypeError on every attempt, and every compaction fails as if its model had",
  },
  'dropped-counts-kept': {
    broken: true,
    description: "context.compacted's dropped counts every group of the dialog before, the kept ones too",
  },
  'compaction-keeps-texts': {
    broken: true,
    description:
      'the compaction input never elides assistant texts: texts that pass the blob limit fail every compaction, and the run ends',
  },
  'limits-whole': {
    broken: true,
    description: 'the run input must name every limit: a run that scales only some of them is refused with InvalidRunInput',
  },
  'digest-in-units': {
    broken: true,
    description:
      "the compaction digest cuts each message's head and tail at 1,024 UTF-16 units, not bytes: non-ASCII windows run past the contract's, and the compaction model refuses them",
    activityControls: { digestWindowUnit: 'utf16-units' },
  },
  'compaction-sees-screenshots': {
    broken: true,
    description:
      'the compaction request attaches the screenshots of the dialog as image parts: the compaction model is sent what the spec only counts, and refuses it',
    activityControls: { compactionScreenshots: 'sent' },
  },
  'compaction-on-agent-model': {
    broken: true,
    description:
      "compaction calls the agent's model, not the settings' compaction model: the expensive model reads every digest, and the mocks refuse it",
    activityControls: { compactionModelRole: 'agent' },
  },
  'card-in-units': {
    broken: true,
    description: "the card's size limit counts UTF-16 units, not UTF-8 bytes: a card mostly in Chinese, past the limit in bytes, is taken",
    activityControls: { cardSizeUnit: 'utf16-units' },
  },
  'guard-target-margin': {
    broken: true,
    description: 'the payload guard brings requests under the envelope margin (1/32 of the blob limit): runs end on requests that fit',
  },
};

const PATCHES: Partial<Record<BinaryId, readonly SourceEdit[]>> = CONTROL_PATCHES;

function binary(id: BinaryId): Binary {
  const patch = PATCHES[id];
  if (!patch) return { id, ...DESCRIPTIONS[id], workflowsPath: siblingModule(import.meta.url, `./${id}.ts`) };
  const base = DESCRIPTIONS[id].base ?? CURRENT_BINARY;
  return { id, ...DESCRIPTIONS[id], patch, workflowsPath: siblingModule(import.meta.url, `./${base}.ts`) };
}

export const BINARIES = Object.fromEntries(BINARY_IDS.map((id) => [id, binary(id)])) as Record<BinaryId, Binary>;

export function isBinaryId(value: string): value is BinaryId {
  return (BINARY_IDS as readonly string[]).includes(value);
}
