/** Broken control: the rebuild keeps up to 9 whole turn groups in the tail (TAIL_MAX_GROUPS + 1) when they fit. */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({
  ...CURRENT_KERNEL,
  rebuild: { ...CURRENT_KERNEL.rebuild, tailMaxGroups: 9 },
});
