/** Broken control: a card of exactly cardMaxBytes is rejected as oversized (`>=` for `>`). */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({
  ...CURRENT_KERNEL,
  rejectsCardAtLimit: true,
});
