/** Broken control: the compaction input leaves out the run's settings, so the activity crashes (a TypeError) on every attempt. */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({
  ...CURRENT_KERNEL,
  compactionInputHasSettings: false,
});
