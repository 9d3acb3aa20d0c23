/** v0, the production binary before compaction: append-only history, payload guard and elision of big items, then it sends whatever is left. */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({ ...CURRENT_KERNEL, gate: 'never' });
