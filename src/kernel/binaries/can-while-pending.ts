/** Broken control: ContinueAsNew while the last journal appends are still pending (the boundary is not clean and the carried journal head is stale). */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({
  ...CURRENT_KERNEL,
  drainsBeforeContinueAsNew: false,
});
