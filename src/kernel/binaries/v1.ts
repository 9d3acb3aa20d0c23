/** v1, the current binary: compaction, rebuild, ContinueAsNew and the guard's last boundary behind the `context-compaction` gate. */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun(CURRENT_KERNEL);
