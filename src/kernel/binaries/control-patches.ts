/**
 * The broken controls that are a change of the kernel's source: each one's edits, applied to a
 * copy of the kernel when its bundle is built (source-patch.ts). A control's workflow is its
 * base release's entry (`base` in the registry, v1 unless it says) in the patched copy.
 *
 * To add one: a registry entry (index.ts) and its edits here, each one line of the kernel free
 * of type syntax that occurs once in its file; patched-kernel.test.ts then keeps it applying.
 */
import type { SourceEdit } from './source-patch.ts';

const AGENT_RUN = 'workflows/agent-run.ts';
const REBUILD = 'context/rebuild.ts';

/** One edit of agent-run.ts. */
const agentRun = (find: string, replace: string): SourceEdit[] => [{ file: AGENT_RUN, find, replace }];

const TRIGGER = 'return requestBytes > this.limits.compactionTriggerBytes && this.gateOpen();';
const BUDGET = 'return this.executionRequestBytes > this.limits.continueAsNewBytes && this.gateOpen();';
const CARD_LIMIT = 'cardMaxBytes: this.limits.cardMaxBytes,';

export const CONTROL_PATCHES = {
  ungated: agentRun('return patched(COMPACTION_PATCH_ID);', 'return true;'),
  'history-ungated': agentRun('patched(HISTORY_PRESSURE_PATCH_ID) &&', 'true &&'),
  'can-while-pending': agentRun('const journal = await this.journal.drain();', 'const journal = this.journal.head;'),
  'compaction-fatal': agentRun(
    "this.journal.append('context.compaction_failed', turn, { ...data });",
    "this.journal.append('context.compaction_failed', turn, { ...data }); await this.journal.drain(); throw ApplicationFailure.create({ type: FAILURE_TYPE.compactionFailed, nonRetryable: true, message: data.reason });",
  ),
  'trigger-late': agentRun(
    TRIGGER,
    // A count of boundaries over the trigger, on the instance: compaction waits for the second.
    'this.overTrigger = requestBytes > this.limits.compactionTriggerBytes ? (this.overTrigger ?? 0) + 1 : 0; return this.overTrigger >= 2 && this.gateOpen();',
  ),
  'trigger-inclusive': agentRun(TRIGGER, 'return requestBytes >= this.limits.compactionTriggerBytes && this.gateOpen();'),
  'can-budget-per-run': agentRun(BUDGET, 'return this.counters.totalRequestBytes > this.limits.continueAsNewBytes && this.gateOpen();'),
  'can-at-budget': agentRun(BUDGET, 'return this.executionRequestBytes >= this.limits.continueAsNewBytes && this.gateOpen();'),
  'can-once': agentRun(BUDGET, `if (this.input.resume) return false; ${BUDGET}`),
  'card-unchecked': agentRun(CARD_LIMIT, 'cardMaxBytes: this.limits.cardMaxBytes * 4,'),
  'card-tail-limit': agentRun(CARD_LIMIT, 'cardMaxBytes: this.limits.tailMaxBytes,'),
  'card-limit-exclusive': agentRun(CARD_LIMIT, 'cardMaxBytes: this.limits.cardMaxBytes - 1,'),
  'compaction-no-settings': agentRun('settings: this.input.settings,', 'settings: undefined,'),
  'compaction-keeps-texts': agentRun('{ elidesAssistantText: true }', '{ elidesAssistantText: false }'),
  'dropped-counts-kept': agentRun('dropped: rebuilt.dropped,', 'dropped: rebuilt.dropped + rebuilt.kept,'),
  'guard-target-margin': agentRun('return guardTargetBytes(this.limits);', 'return envelopeMarginBytes(this.limits);').concat({
    file: AGENT_RUN,
    find: "import { bigItemThresholdBytes, guardTargetBytes } from '../context/limits.ts';",
    replace: "import { bigItemThresholdBytes, envelopeMarginBytes, guardTargetBytes } from '../context/limits.ts';",
  }),
  'compaction-item-ignored': agentRun('return afterProviderCompaction(this.messages, compaction);', 'return this.messages;'),
  'compaction-retries-forever': [{ file: 'workflows/activity-proxies.ts', find: 'maximumAttempts: 3,', replace: '' }],
  'guard-ignores-screenshots': [
    {
      file: 'context/guard.ts',
      find: 'const countsScreenshots = policy.countsScreenshots ?? true;',
      replace: 'const countsScreenshots = false;',
    },
  ],
  'utf16-sizes': [{ file: 'context/bytes.ts', find: '!NON_ASCII.test(text)', replace: 'true' }],
  'limits-whole': [
    {
      file: 'context/run-input.ts',
      find: 'const resolved = resolveLimits(input.limits);',
      replace:
        "const resolved = resolveLimits(input.limits); if (input.limits !== undefined && Object.keys(input.limits).length < Object.keys(resolved).length) throw new Error('limits must name every limit');",
    },
  ],
  'split-group': [
    {
      file: REBUILD,
      find: 'messages: [systemPrompt, userRequest, cardMessage(card), ...tail],',
      replace: 'messages: [systemPrompt, userRequest, cardMessage(card), ...tail.slice(1)],',
    },
  ],
  'tail-nine-groups': [
    {
      file: REBUILD,
      find: 'const most = Math.min(groups.length, TAIL_MAX_GROUPS);',
      replace: 'const most = Math.min(groups.length, TAIL_MAX_GROUPS + 1);',
    },
  ],
  'tail-one-group': [
    {
      file: REBUILD,
      find: 'count >= TAIL_MIN_GROUPS && bytes + groupBytes > tailMaxBytes',
      replace: 'count >= 1 && bytes + groupBytes > tailMaxBytes',
    },
  ],
  'tail-cap-off-by-one': [{ file: REBUILD, find: 'let bytes = 1;', replace: 'let bytes = 0;' }],
  'tail-counts-twice': [
    {
      file: REBUILD,
      find: 'count >= TAIL_MIN_GROUPS && bytes + groupBytes > tailMaxBytes',
      replace: 'count >= TAIL_MIN_GROUPS && bytes + 2 * groupBytes > tailMaxBytes',
    },
  ],
  'elision-smallest-first': [
    {
      file: 'context/elision.ts',
      find: 'return [...items].sort((a, b) => b.bytes - a.bytes ||',
      replace: 'return [...items].sort((a, b) => a.bytes - b.bytes ||',
    },
  ],
  'tail-keeps-texts': [
    { file: REBUILD, find: "new Set(['screenshot', 'tool_output', 'assistant_text'])", replace: "new Set(['screenshot', 'tool_output'])" },
  ],
} satisfies Record<string, readonly SourceEdit[]>;
