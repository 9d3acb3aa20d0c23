/**
 * The agent run as a Temporal workflow, as a team would write it on the OpenAI Agents SDK:
 * an Agent with the sandbox's tools, run by `TemporalOpenAIRunner` (each model call an
 * activity of the plugin's) for up to `maxTurns`. It takes longrun's run input (the contract's
 * RunInput) and returns the contract's RunResult; it has no compaction and never continues
 * as new, as the framework has neither. Workflow code: no I/O here, the tools call an activity.
 */
import { Agent, MaxTurnsExceededError, tool } from '@openai/agents-core';
import { TemporalOpenAIRunner } from '@temporalio/openai-agents/workflow';
import { proxyActivities } from '@temporalio/workflow';
import type * as activities from './activities.ts';
import { type RunInput, type RunResult, TOOLS, type ToolContent } from './contract.ts';

const { run_tool } = proxyActivities<typeof activities>({
  startToCloseTimeout: '30s',
  retry: { maximumAttempts: 5, initialInterval: '1s' },
});

/** The sandbox's content as the Agents SDK's tool output: text, and a screenshot as an image. */
function toolOutput(content: ToolContent) {
  if (typeof content === 'string') return content;
  return content.map((part) =>
    part.type === 'text' ? { type: 'text' as const, text: part.text } : { type: 'image' as const, image: part.image_url.url },
  );
}

/** One function tool per sandbox tool: the model's arguments go to the sandbox as they came. */
function sandboxTool(runId: string, name: string, description: string) {
  return tool({
    name,
    description,
    // Not strict: the plan's calls carry the arguments the sandbox reads (seed, bytes, path...).
    strict: false,
    parameters: { type: 'object', properties: {}, required: [], additionalProperties: true },
    async execute(args, context, details) {
      const call = {
        id: details?.toolCall?.callId ?? name,
        type: 'function' as const,
        function: { name, arguments: JSON.stringify(args) },
      };
      // The turn of the model answer that asked for it: the requests made so far.
      const turn = Math.max(1, context?.usage.requests ?? 1);
      const result = await run_tool({ runId, turn, call });
      return toolOutput(result.content);
    },
  });
}

export async function agentRun(input: RunInput): Promise<RunResult> {
  const agent = new Agent({
    name: 'longrun-agent',
    instructions: input.systemPrompt,
    model: input.settings.agent.model,
    tools: Object.entries(TOOLS).map(([name, description]) => sandboxTool(input.runId, name, description)),
  });
  const runner = new TemporalOpenAIRunner();
  const counters = (turns: number) => ({ turns, totalRequestBytes: 0, compactions: 0, compactionFailures: 0, executions: 1 });
  try {
    const result = await runner.run(agent, input.userRequest, { maxTurns: input.maxTurns });
    const turns = result.state.usage.requests;
    return { runId: input.runId, counters: counters(turns), finalAnswer: String(result.finalOutput ?? ''), ended: 'done' };
  } catch (error) {
    if (!(error instanceof MaxTurnsExceededError)) throw error;
    return { runId: input.runId, counters: counters(input.maxTurns), finalAnswer: null, ended: 'max-turns' };
  }
}

// The second agent, Temporal's sample's way: its own signature and tool, no contract.
export { weatherAgent } from './weather-workflow.ts';
