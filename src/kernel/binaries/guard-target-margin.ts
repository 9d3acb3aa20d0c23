/** Broken control: the payload guard brings requests under the envelope's margin (1/32 of the blob limit), not under the limit less it: runs end on requests that fit. */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({ ...CURRENT_KERNEL, guardTarget: 'envelope-margin' });
