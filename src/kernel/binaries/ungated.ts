/** Broken control: compaction without the gate, so a v0 history that crossed the trigger does not replay. */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({ ...CURRENT_KERNEL, gate: 'always' });
