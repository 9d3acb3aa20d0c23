/** Broken control: the rebuild elides screenshots and tool outputs in a tail over the cap, never assistant texts: a tail whose texts pass the cap stays over it. */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({
  ...CURRENT_KERNEL,
  rebuild: { ...CURRENT_KERNEL.rebuild, tailElidable: ['screenshot', 'tool_output'] },
});
