/** The agent-run workflow, parameterised by the options that tell the releases apart. */
export { type AgentRunWorkflow, createAgentRun } from './agent-run.ts';
export { CURRENT_KERNEL, type KernelOptions } from './kernel-options.ts';
