/** Broken control: the compaction input never elides assistant texts, so texts past the blob limit fail the compaction, then the run. */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({ ...CURRENT_KERNEL, compactionElidesTexts: false });
