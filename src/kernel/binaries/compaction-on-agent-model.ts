/**
 * Broken control, in its activities (`activityControls` in the registry): compaction calls the
 * agent's model. Its workflow is v1's.
 */
export { agentRun } from './v1.ts';
