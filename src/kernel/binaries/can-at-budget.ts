/** Broken control: ContinueAsNew once the execution's request bytes reach the budget (>= where the spec says exceed). */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({
  ...CURRENT_KERNEL,
  continuesAsNewAtBudget: true,
});
