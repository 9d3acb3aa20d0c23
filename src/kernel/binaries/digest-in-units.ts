/**
 * Broken control, in its activities (`activityControls` in the registry): the compaction digest
 * cuts each message's windows in UTF-16 units. Its workflow is v1's.
 */
export { agentRun } from './v1.ts';
