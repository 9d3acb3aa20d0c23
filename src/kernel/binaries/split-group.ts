/** Broken control: the rebuild drops the first message of the tail, splitting a turn group (tool results without their assistant message). */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({
  ...CURRENT_KERNEL,
  rebuild: { ...CURRENT_KERNEL.rebuild, splitsGroups: true },
});
