/** Broken control: the compaction activity's retry policy lost its attempt bound; a failing compaction model stalls the run. */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({ ...CURRENT_KERNEL, compactionAttempts: 'unbounded' });
