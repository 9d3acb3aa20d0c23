/** Broken control: a request exactly at compactionTriggerBytes compacts (>= where the spec says larger than). */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({
  ...CURRENT_KERNEL,
  compactsAtTrigger: true,
});
