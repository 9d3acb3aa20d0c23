/** Broken control: provider-compaction that asks the provider to compact but ignores its compaction item and keeps sending everything. */
import { createAgentRun } from '../workflows/agent-run.ts';
import { CURRENT_KERNEL } from '../workflows/kernel-options.ts';

export const agentRun = createAgentRun({
  ...CURRENT_KERNEL,
  gate: 'never',
  contextManagement: 'provider',
  dropsBeforeCompactionItem: false,
});
