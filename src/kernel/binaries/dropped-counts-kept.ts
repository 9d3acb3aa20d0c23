/** Broken control: context.compacted's `dropped` counts every group of the dialog before, the kept ones too. */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({
  ...CURRENT_KERNEL,
  droppedCountsKept: true,
});
