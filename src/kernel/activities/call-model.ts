/** `call_model`: the turn's whole request to the agent model, as the workflow built it. */
import type { CallModelInput, CallModelResult } from '../../contract/kernel-api.ts';
import { type ActivitiesConfig, DEFAULT_HTTP_TIMEOUTS, joinUrl } from './config.ts';
import { postJson } from './http.ts';
import { fromResponsesAnswer, toResponsesRequest } from './responses-wire.ts';
import { parseChatResponse } from './wire-schemas.ts';

export async function callModel(config: ActivitiesConfig, input: CallModelInput): Promise<CallModelResult> {
  // Provider-side compaction is the Responses API's: a request that asks for it goes there.
  if (input.request.context_management) {
    return fromResponsesAnswer(await postModel(config, 'responses', toResponsesRequest(input.request)), 'model');
  }
  return parseChatResponse(await postModel(config, 'chat/completions', input.request), 'model');
}

function postModel(config: ActivitiesConfig, path: string, body: unknown): Promise<unknown> {
  return postJson({
    fetch: config.fetch ?? globalThis.fetch,
    url: joinUrl(config.modelBaseUrl, path),
    body,
    timeoutMs: config.timeoutsMs?.model ?? DEFAULT_HTTP_TIMEOUTS.model,
    headers: modelHeaders(config),
    peer: 'model',
  });
}

/** The host's headers, and the model API's key when set. */
export function modelHeaders(config: ActivitiesConfig): Record<string, string> {
  return { ...config.headers, ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) };
}
