/** Broken control: v2 without its gate, so v1 histories in which the server suggested ContinueAsNew do not replay on it. */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({ ...CURRENT_KERNEL, continuesAsNewOnHistory: 'always' });
