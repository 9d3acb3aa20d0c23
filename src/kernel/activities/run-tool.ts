/** `run_tool`: one tool call, answered by the sandbox API. */
import type { RunToolInput, RunToolResult } from '../../contract/kernel-api.ts';
import { type ActivitiesConfig, DEFAULT_HTTP_TIMEOUTS, joinUrl } from './config.ts';
import { postJson } from './http.ts';
import { parseToolResult } from './wire-schemas.ts';

export async function runTool(config: ActivitiesConfig, input: RunToolInput): Promise<RunToolResult> {
  const body = await postJson({
    fetch: config.fetch ?? globalThis.fetch,
    url: joinUrl(config.sandboxBaseUrl, `tools/${encodeURIComponent(input.call.function.name)}`),
    body: input,
    timeoutMs: config.timeoutsMs?.tool ?? DEFAULT_HTTP_TIMEOUTS.tool,
    ...(config.headers ? { headers: config.headers } : {}),
    peer: 'sandbox',
  });
  return parseToolResult(body, 'sandbox');
}
