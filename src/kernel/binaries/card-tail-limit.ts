/** Broken control: the card is validated against the tail's limit (tailMaxBytes) instead of cardMaxBytes: where the tail may be larger, oversized cards get in. */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({
  ...CURRENT_KERNEL,
  cardLimit: 'tailMaxBytes',
});
