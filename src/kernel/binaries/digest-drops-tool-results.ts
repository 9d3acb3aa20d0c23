/**
 * Broken control, in its activities (`activityControls` in the registry): the compaction digest
 * leaves out the tools' results. Its workflow is v1's.
 */
export { agentRun } from './v1.ts';
