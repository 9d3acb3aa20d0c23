/**
 * The Agents SDK's Temporal plugin, with the model pointed at longrun's mock (LONGRUN_MODEL_URL,
 * the Responses API, a dummy key) and tracing off: the SDK would otherwise post its traces to
 * api.openai.com. The worker, the replayer and the bundler register the same plugin.
 */
import { setTracingDisabled } from '@openai/agents-core';
import { OpenAIProvider } from '@openai/agents-openai';
import { OpenAIAgentsPlugin } from '@temporalio/openai-agents';

export function agentsPlugin(): OpenAIAgentsPlugin {
  setTracingDisabled(true);
  const baseURL = process.env.LONGRUN_MODEL_URL;
  return new OpenAIAgentsPlugin({
    modelProvider: new OpenAIProvider({ apiKey: 'longrun-dummy-key', ...(baseURL ? { baseURL } : {}), useResponses: true }),
    modelParams: { startToCloseTimeout: '60s', retry: { maximumAttempts: 5, initialInterval: '1s' } },
  });
}

export const workflowsPath = new URL('./workflows.ts', import.meta.url).pathname;

/** The workflow bundle `npm run bundle` writes (install.mjs runs it), which the worker and the replayer load. */
export const bundlePath = new URL('../dist/workflow-bundle.js', import.meta.url).pathname;
