/**
 * Broken control, in its activities (`activityControls` in the registry): the card's size limit
 * counts UTF-16 units, not UTF-8 bytes. Its workflow is v1's.
 */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun(CURRENT_KERNEL);
