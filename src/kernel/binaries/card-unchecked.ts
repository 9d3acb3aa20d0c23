/** Broken control: the card is validated against four times its limit, so oversized cards get in. */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({
  ...CURRENT_KERNEL,
  cardLimitFactor: 4,
});
