/** Broken control: the payload guard neither counts nor elides screenshots. */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({
  ...CURRENT_KERNEL,
  guardCountsScreenshots: false,
});
