/** `call_model`: the turn's whole request to the agent model, as the workflow built it. */
import type { CallModelInput, CallModelResult } from '../../contract/kernel-api.ts';
import { type ActivitiesConfig, DEFAULT_HTTP_TIMEOUTS, joinUrl } from './config.ts';
import { postJson } from './http.ts';
import { parseChatResponse } from './wire-schemas.ts';

export async function callModel(config: ActivitiesConfig, input: CallModelInput): Promise<CallModelResult> {
  const body = await postJson({
    fetch: config.fetch ?? globalThis.fetch,
    url: joinUrl(config.modelBaseUrl, 'chat/completions'),
    body: input.request,
    timeoutMs: config.timeoutsMs?.model ?? DEFAULT_HTTP_TIMEOUTS.model,
    headers: modelHeaders(config),
    peer: 'model',
  });
  return parseChatResponse(body, 'model');
}

/** The host's headers, and the model API's key when set. */
export function modelHeaders(config: ActivitiesConfig): Record<string, string> {
  return { ...config.headers, ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) };
}
