/** Broken control: the rebuild counts the tail one byte short (the JSON array's opening bracket forgotten): a tail one byte over the cap is taken, then elided into. */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({
  ...CURRENT_KERNEL,
  rebuild: { ...CURRENT_KERNEL.rebuild, tailArrayBytes: 0 },
});
