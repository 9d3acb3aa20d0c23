/**
 * `kernel.compact_context`: one call to the cheap compaction model over a digest of the
 * history; the card comes back validated or the attempt fails (HTTP error, timeout, malformed
 * body, invalid card are all failures, retried briefly by the workflow's policy).
 */
import { ApplicationFailure } from '@temporalio/common';
import { FAILURE_TYPE } from '../../contract/failure-types.ts';
import type { CompactContextInput, CompactContextResult, RunSettings } from '../../contract/kernel-api.ts';
import type { ChatRequest, ContentPart, Message } from '../../contract/messages.ts';
import { cardProblem } from '../context/card.ts';
import { buildDigest, DIGEST_DEFAULTS } from '../context/digest.ts';
import { modelHeaders } from './call-model.ts';
import { compactionPrompt } from './compaction-prompt.ts';
import { type ActivitiesConfig, DEFAULT_HTTP_TIMEOUTS, joinUrl } from './config.ts';
import { postJson } from './http.ts';
import { parseChatResponse } from './wire-schemas.ts';

const PEER = 'compaction model';

/** The history as the digest is built from it: whole, but in a control's slip. */
function digested(messages: readonly Message[], leavesOut: ActivitiesConfig['digestLeavesOut']): readonly Message[] {
  if (leavesOut === 'system-messages') return messages.filter((message) => message.role !== 'system');
  if (leavesOut === 'tool-results') return messages.filter((message) => message.role !== 'tool');
  if (leavesOut === 'assistant-texts') {
    return messages.map((message) =>
      message.role === 'assistant' && typeof message.content === 'string' ? { ...message, content: '' } : message,
    );
  }
  return messages;
}

function digestContent(config: ActivitiesConfig, messages: readonly Message[]): string | ContentPart[] {
  const digest = buildDigest(digested(messages, config.digestLeavesOut), {
    ...DIGEST_DEFAULTS,
    windowUnit: config.digestWindowUnit ?? 'utf8-bytes',
  });
  if (config.compactionScreenshots !== 'sent') return digest;
  const images = messages
    .flatMap((message) => (Array.isArray(message.content) ? message.content : []))
    .filter((part) => part.type === 'image_url');
  return [{ type: 'text', text: digest }, ...images];
}

export async function compactContext(config: ActivitiesConfig, input: CompactContextInput): Promise<CompactContextResult> {
  const model =
    config.compactionModelRole === 'agent' ? input.settings.agent.model : compactionModel(input.settings, process.env.LONGRUN_MODEL);
  const request: ChatRequest = {
    model,
    messages: [
      { role: 'system', content: compactionPrompt(input.cardMaxBytes) },
      { role: 'user', content: digestContent(config, input.messages) },
    ],
    metadata: {
      longrun_run_id: input.runId,
      longrun_turn: String(input.turn),
      longrun_purpose: 'compaction',
    },
  };
  const body = await postJson({
    fetch: config.fetch ?? globalThis.fetch,
    url: joinUrl(config.modelBaseUrl, 'chat/completions'),
    body: request,
    timeoutMs: config.timeoutsMs?.compaction ?? DEFAULT_HTTP_TIMEOUTS.compaction,
    headers: modelHeaders(config),
    peer: PEER,
  });
  const card = parseChatResponse(body, PEER).message.content?.trim() ?? '';
  const problem = cardProblem(card, input.cardMaxBytes, config.cardSizeUnit);
  // The card goes with the failure: the checks judge a rejected card on their own (compaction.card).
  if (problem !== null)
    throw ApplicationFailure.create({
      type: FAILURE_TYPE.invalidCard,
      message: problem,
      details: [card],
    });
  return { card, model };
}

/** The `compaction` role, else the judge model, else the env model, else the agent's own. */
export function compactionModel(settings: RunSettings, envModel: string | undefined): string {
  const candidates = [settings.compaction?.model, settings.judge?.model, envModel, settings.agent.model];
  return candidates.find((model) => model !== undefined && model.trim() !== '') ?? settings.agent.model;
}
