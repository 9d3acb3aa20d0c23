/**
 * Broken control, in its activities (`activityControls` in the registry): compaction calls the
 * agent's model. Its workflow is v1's.
 */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun(CURRENT_KERNEL);
