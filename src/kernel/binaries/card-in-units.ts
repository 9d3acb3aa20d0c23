/**
 * Broken control, in its activities (`activityControls` in the registry): the card's size limit
 * counts UTF-16 units, not UTF-8 bytes. Its workflow is v1's.
 */
export { agentRun } from './v1.ts';
