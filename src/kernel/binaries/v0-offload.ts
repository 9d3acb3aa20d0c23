/** v0's workflow; its workers offload big payloads to External Storage (`offload` in the registry). */
export { agentRun } from './v0.ts';
