/** Broken control: the run input must name every limit, so a run that scales only some of them is refused at once with InvalidRunInput. */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({ ...CURRENT_KERNEL, runInputLimits: 'whole' });
