/** Broken control: compaction starts one turn boundary after the request passed the trigger. */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({
  ...CURRENT_KERNEL,
  triggerBoundaries: 2,
});
