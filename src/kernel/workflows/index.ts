/** The agent-run workflow, parameterised by the switches that tell the binaries apart. */
export { type AgentRunWorkflow, createAgentRun } from './agent-run.ts';
export { CURRENT_KERNEL, type KernelOptions } from './kernel-options.ts';
