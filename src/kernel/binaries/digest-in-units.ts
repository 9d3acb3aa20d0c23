/**
 * Broken control, in its activities (`activityControls` in the registry): the compaction digest
 * cuts each message's windows in UTF-16 units. Its workflow is v1's.
 */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun(CURRENT_KERNEL);
