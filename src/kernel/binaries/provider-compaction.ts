/**
 * provider-compaction: v0's append-only loop and payload guard, and no state card: the provider
 * compacts (the OpenAI Responses API's `context_management` past the trigger in tokens), and
 * the conversation keeps only what follows the compaction item it answers with.
 */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({ ...CURRENT_KERNEL, gate: 'never', contextManagement: 'provider' });
