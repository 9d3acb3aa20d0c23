/** Broken control: the ContinueAsNew budget counts the run's request bytes, not the execution's; past it, executions continue as new for ever. */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({ ...CURRENT_KERNEL, continueAsNewBudget: 'run' });
