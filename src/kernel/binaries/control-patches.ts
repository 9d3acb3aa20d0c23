/**
 * The broken controls that are a change of the kernel's source: each one's edits, applied to a
 * copy of the kernel when its bundle is built (source-patch.ts). A control's workflow is its
 * base release's entry (`base` in the registry, v1 unless it says) in the patched copy.
 *
 * To add one: a registry entry (index.ts) and its edits here, each one line of the kernel free
 * of type syntax that occurs once in its file; control-patches.test.ts then keeps it applying.
 */
import type { SourceEdit } from './source-patch.ts';

const AGENT_RUN = 'workflows/agent-run.ts';

export const CONTROL_PATCHES = {
  ungated: [{ file: AGENT_RUN, find: 'return patched(COMPACTION_PATCH_ID);', replace: 'return true;' }],
  'can-while-pending': [
    { file: AGENT_RUN, find: 'const journal = await this.journal.drain();', replace: 'const journal = this.journal.head;' },
  ],
  'compaction-fatal': [
    {
      file: AGENT_RUN,
      find: "this.journal.append('context.compaction_failed', turn, { ...data });",
      replace:
        "this.journal.append('context.compaction_failed', turn, { ...data }); await this.journal.drain(); throw ApplicationFailure.create({ type: FAILURE_TYPE.compactionFailed, nonRetryable: true, message: data.reason });",
    },
  ],
} as const satisfies Record<string, readonly SourceEdit[]>;
