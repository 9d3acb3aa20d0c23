/**
 * Broken control, in its activities (`activityControls` in the registry): the compaction request
 * attaches the dialog's screenshots as image parts. Its workflow is v1's.
 */
export { agentRun } from './v1.ts';
