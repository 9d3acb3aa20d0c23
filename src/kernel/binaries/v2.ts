/**
 * v2: v1, and it also continues as new when the history calls for it (Temporal suggests it, or
 * the history's length or size passes the kernel's bounds), behind the `continue-as-new-suggested`
 * gate, so that v1 histories replay on it unchanged.
 */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({ ...CURRENT_KERNEL, continuesAsNewOnHistory: 'patched' });
