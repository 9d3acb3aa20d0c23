/** Broken control: the rebuild keeps at least 1 turn group instead of 2, so a tail whose last two groups pass the cap keeps one. */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({
  ...CURRENT_KERNEL,
  rebuild: { ...CURRENT_KERNEL.rebuild, tailMinGroups: 1 },
});
