/** v1's workflow; its workers offload big payloads to External Storage (`offload` in the registry). */
export { agentRun } from './v1.ts';
