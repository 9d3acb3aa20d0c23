/**
 * Broken control, in its activities (`activityControls` in the registry): the compaction digest
 * leaves out system messages, the earlier card among them. Its workflow is v1's.
 */
export { agentRun } from './v1.ts';
