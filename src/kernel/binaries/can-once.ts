/** Broken control: only the first execution continues as new: a resumed execution sends past its budget. */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({
  ...CURRENT_KERNEL,
  continuesAsNewOnce: true,
});
