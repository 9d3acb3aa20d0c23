/**
 * The model API mock: POST {modelBaseUrl}/chat/completions, /responses and /messages (OpenAI
 * Chat Completions, OpenAI Responses, Anthropic Messages; /v1/messages too, for an Anthropic
 * client given the base URL whole) answer as the agent model (the run's
 * plan, turn by turn) or as the compaction model (a state card from the digest). The answer
 * and the fault are decided once, whatever the format; the format only renders them.
 */
import { http, type RequestHandler } from 'msw';
import { CARD_MAX_BYTES, CARD_SECTIONS } from '../../src/contract/limits.ts';
import { BINARY_HEADER, readRunMarker } from '../../src/contract/run-marker.ts';
import { FaultPicker, type PickedFault } from '../faults/fault-picker.ts';
import type { FaultProfile } from '../faults/fault-profile.ts';
import { type Answer, respond } from '../faults/fault-response.ts';
import type { MockRecorder, MockTarget } from '../recorder/mock-recorder.ts';
import { messageEndTurns } from '../synthetic/conversation.ts';
import type { AssistantMessage, PlannedTurn, RunPlan } from '../synthetic/plan-run.ts';
import { usageFor } from './chat-answer.ts';
import { extractIdentifiers, type Identifier, writeCard } from './compaction-card.ts';
import { DigestLedger } from './digest-ledger.ts';
import { screenshotBytesProblem } from './digest-screenshots.ts';
import { digestWindowProblem, plannedTexts } from './digest-windows.ts';
import { playTurn } from './play-turn.ts';
import {
  billedInputTokens,
  type ContextWindow,
  carriedProblem,
  decideCompaction,
  hasBeta,
  type ProviderOutcome,
  type ProviderReply,
  type WindowedRequest,
} from './provider-compaction.ts';
import { compactedAnswer, readCompactRequest } from './responses-compact.ts';
import { claimedRun, compactRun, identify, windowedRun } from './run-identity.ts';
import { checkToolMap, type ToolMap } from './tool-map.ts';
import type { ModelRequest } from './wire-format.ts';
import { RESPONSES, WIRE_FORMATS } from './wire-formats.ts';

export const DEFAULT_MODEL_BASE_URL = 'http://model.longrun.test/v1';

export interface ModelHandlerOptions {
  /** The plan of a run: the agent model answers its turns. */
  plans: (runId: string) => RunPlan;
  modelBaseUrl?: string;
  /**
   * The compaction model's names: a request with no longrun_purpose that names one is a
   * compaction, and a compaction request must name one (none given: any model).
   */
  compactionModels?: readonly string[];
  cardMaxBytes?: number;
  faults?: FaultProfile;
  recorder?: MockRecorder;
  /** The agent's tools whose backends reach the sandbox, e.g. `{ get_page: 'screenshot' }` (see play-turn.ts). */
  toolMap?: ToolMap;
  /**
   * The user messages each run's conversation holds (a chat agent's, see conversation.ts): the
   * plan's turns are shared among them, each share ending in a final answer. Default 1.
   */
  conversationMessages?: number;
}

export function createModelHandlers(options: ModelHandlerOptions): RequestHandler[] {
  const base = (options.modelBaseUrl ?? DEFAULT_MODEL_BASE_URL).replace(/\/$/, '');
  const picker = new FaultPicker(options.faults);
  const compactionModels = options.compactionModels ?? [];
  const cardMaxBytes = options.cardMaxBytes ?? CARD_MAX_BYTES;
  const toolMap = checkToolMap(options.toolMap ?? {});
  const digests = new DigestLedger();

  const formats = WIRE_FORMATS.flatMap((format) =>
    format.paths.map((path) =>
      http.post(`${base}${path}`, async ({ request }) => {
        const text = await request.text();
        const binary = request.headers.get(BINARY_HEADER);
        const refuse = (message: string, owner: Owner) =>
          refuseRequest(request, text, options.recorder, format.invalid(message), owner, message);
        let req: WindowedRequest;
        try {
          req = format.read(text, compactionModels);
        } catch (error) {
          return refuse((error as Error).message, { target: 'agent', runId: readRunMarker(text), turn: null });
        }
        const { window } = req;
        if (window) {
          const problem = windowProblem(window, request.headers.get('anthropic-beta'), req, options.plans);
          if (problem) return refuse(problem, { target: 'agent', runId: claimedRun(req) ?? window.latest?.run ?? null, turn: null });
          req = windowedRun(req);
        }
        const { runId, turn } = identify(req);
        const owner = { target: req.purpose, runId, turn };
        let planned: AssistantMessage | null = null;
        if (req.purpose === 'agent') {
          const plan = options.plans(runId as string);
          // A model calls only the tools it is offered: the plan's, the agent's mapped to them, or the agent's own.
          const played = playTurn({
            plan,
            planned: agentTurn(plan, turn as number),
            endsMessage: endsMessage(plan, turn as number, req.userMessages, options.conversationMessages ?? 1),
            runId: runId as string,
            turn: turn as number,
            offered: req.tools,
            toolMap,
            ...(req.outputSchema ? { outputSchema: req.outputSchema } : {}),
          });
          if ('refusal' in played) return refuse(played.refusal, owner);
          planned = played.message;
          digests.agentAsked(runId as string, binary, turn, req.digest);
          digests.answered(runId as string, binary, turn, typeof planned.content === 'string' ? planned.content : '');
        }
        const compaction = `the compaction request${turn === null ? '' : ` of turn ${turn}`}${runId === null ? '' : ` of ${runId}`}`;
        if (req.purpose === 'compaction' && compactionModels.length > 0 && !compactionModels.includes(req.model)) {
          const named = compactionModels.map((model) => JSON.stringify(model)).join(' or ');
          return refuse(
            `body.model: ${compaction} names ${JSON.stringify(req.model)}; the run's settings name ${named} for compaction (settings.compaction.model)`,
            owner,
          );
        }
        const shown = req.purpose === 'compaction' ? screenshotBytesProblem(text) : null;
        if (shown) return refuse(`body: ${compaction}: ${shown}`, owner);
        if (req.purpose === 'compaction' && runId !== null) {
          const windowed = digestWindowProblem(req.digest, plannedTexts(options.plans(runId), turn ?? Number.POSITIVE_INFINITY));
          const problem = windowed ?? digests.compactionProblem(runId, binary, req.digest);
          if (problem) return refuse(`body.messages: the digest of turn ${turn} of ${runId}: ${problem}`, owner);
        }
        const picked = picker.pick(req.purpose, { runId, turn, requestBytes: req.bytes });
        const provider: ProviderOutcome | undefined =
          window && req.purpose === 'agent' && (format.name === 'responses' || format.name === 'messages')
            ? decideCompaction(window, {
                format: format.name,
                runId: runId as string,
                turn: turn as number,
                seed: options.plans(runId as string).seed,
                answers: req.answers,
                users: req.userMessages,
                summary: () => card(req.digest, null, cardMaxBytes),
              })
            : undefined;
        const compactionAnswer = (): AssistantMessage => {
          const content = card(req.digest, picked, cardMaxBytes);
          if (runId !== null) digests.written(runId, binary, content);
          return { role: 'assistant', content };
        };
        const reply = (): ProviderReply => {
          const message = planned ?? compactionAnswer();
          return {
            model: req.model,
            message,
            usage: usageFor(req.bytes, message),
            key: `${req.purpose}|${runId}|${turn}`,
            runId,
            turn,
            stream: req.stream,
            maxTokens: req.maxTokens,
            ...(provider ? { provider } : {}),
          };
        };
        const fault = picked?.fault;
        // An overloaded stream the format can fail midway: it starts (200), then its error event.
        const midStream = fault?.kind === 'overloaded' && fault.midStream === true && req.stream && format.midStreamError;
        const answer = (): Answer => (midStream ? midStream(fault, reply()) : format.render(reply()));
        const outcome = (status: number, responseBytes: number) =>
          options.recorder?.record({
            target: req.purpose,
            runId,
            binary,
            turn,
            model: req.model,
            tool: null,
            stream: req.stream,
            requestBytes: req.bytes,
            ...(provider ? { inputTokens: billedInputTokens(provider) } : {}),
            responseBytes,
            status,
            fault: picked?.fault.kind ?? null,
            refusal: null,
          });
        return respond(answer, midStream ? null : picked, request.signal, outcome, (error) => format.error(error, req));
      }),
    ),
  );
  return [...formats, compactHandler(base, options, picker)];
}

type Owner = { target: MockTarget; runId: string | null; turn: number | null };

/** A 400 naming the field, recorded against the run the request names when it can be told. */
function refuseRequest(
  request: Request,
  text: string,
  recorder: MockRecorder | undefined,
  invalid: Answer,
  owner: Owner,
  message: string,
): Promise<Response> {
  const record = (status: number, responseBytes: number) =>
    recorder?.record({
      ...owner,
      binary: request.headers.get(BINARY_HEADER),
      model: null,
      tool: null,
      stream: false,
      requestBytes: Buffer.byteLength(text),
      responseBytes,
      status,
      fault: null,
      refusal: message,
    });
  return respond(
    () => invalid,
    null,
    request.signal,
    record,
    () => invalid,
  );
}

/** Why a request's compaction fields or items are refused: a beta it lacks, an item the mock did not issue. */
function windowProblem(window: ContextWindow, betas: string | null, req: ModelRequest, plans: (runId: string) => RunPlan): string | null {
  if (window.beta && !hasBeta(betas, window.beta)) {
    const field = window.mode === 'param' ? 'compaction' : 'context_management';
    return `body.${field}: needs the beta header anthropic-beta: ${window.beta}`;
  }
  return carriedProblem(window.carried, plans, claimedRun(req));
}

/** POST {base}/responses/compact: the compacted window of the conversation sent (responses-compact.ts). */
function compactHandler(base: string, options: ModelHandlerOptions, picker: FaultPicker): RequestHandler {
  return http.post(`${base}/responses/compact`, async ({ request }) => {
    const text = await request.text();
    const refuse = (message: string, runId: string | null) =>
      refuseRequest(request, text, options.recorder, RESPONSES.invalid(message), { target: 'compaction', runId, turn: null }, message);
    let compact: ReturnType<typeof readCompactRequest>;
    try {
      compact = readCompactRequest(text);
    } catch (error) {
      return refuse((error as Error).message, readRunMarker(text));
    }
    const claimed = readRunMarker(compact.firstUserText);
    const problem = carriedProblem(compact.window.carried, options.plans, claimed);
    if (problem) return refuse(problem, claimed);
    const runId = compactRun(compact);
    const turn = compact.answers + 1;
    const picked = picker.pick('compaction', { runId, turn, requestBytes: compact.bytes });
    const answer = () => compactedAnswer(compact, { runId, seed: options.plans(runId).seed });
    const modelRequest = { bytes: compact.bytes } as ModelRequest;
    const outcome = (status: number, responseBytes: number) =>
      options.recorder?.record({
        target: 'compaction',
        runId,
        turn,
        binary: request.headers.get(BINARY_HEADER),
        model: compact.model,
        tool: null,
        stream: false,
        requestBytes: compact.bytes,
        responseBytes,
        status,
        fault: picked?.fault.kind ?? null,
        refusal: null,
      });
    return respond(answer, picked, request.signal, outcome, (error) => RESPONSES.error(error, modelRequest));
  });
}

/** Bytes at the start of a digest that hold the task itself (the user request). */
const TASK_HEAD_BYTES = 4096;

/**
 * What a good compaction model keeps when not everything fits: the identifiers that name the
 * task (the start of the digest), then the most recent ones (its end) before older ones.
 */
function recentFirst(digest: string, identifiers: readonly Identifier[]): Identifier[] {
  const head = identifiers.filter((i) => digest.indexOf(i.text) < TASK_HEAD_BYTES);
  const rest = identifiers.filter((i) => digest.indexOf(i.text) >= TASK_HEAD_BYTES);
  const lastSeen = new Map(rest.map((i) => [i.text, digest.lastIndexOf(i.text)]));
  rest.sort((a, b) => (lastSeen.get(b.text) as number) - (lastSeen.get(a.text) as number));
  return [...head, ...rest];
}

/** Whether the turn ends its user message's share of the plan (the last message's ends with the plan). */
function endsMessage(plan: RunPlan, turn: number, userMessages: number, messages: number): boolean {
  if (messages <= 1) return false;
  const ends = messageEndTurns(plan.turns.length, messages);
  const message = Math.min(Math.max(userMessages, 1), messages);
  return turn >= (ends[message - 1] as number);
}

/** The plan's turn; past the last turn the final answer repeats. */
function agentTurn(plan: RunPlan, turn: number): PlannedTurn {
  const planned = plan.turns[Math.min(turn, plan.turns.length) - 1];
  if (!planned) throw new Error(`plan of ${plan.runId} has no turns`);
  return planned;
}

function card(digest: string, picked: PickedFault | null, cardMaxBytes: number): string {
  const fault = picked?.fault;
  return writeCard(recentFirst(digest, extractIdentifiers(digest)), {
    maxBytes: cardMaxBytes,
    oversizeTo: fault?.kind === 'oversized-card' ? (fault.bytes ?? Math.round(cardMaxBytes * 1.5)) : undefined,
    omit:
      fault?.kind === 'card-missing-section'
        ? (fault.section ?? CARD_SECTIONS[Math.floor((picked?.draw ?? 0) * CARD_SECTIONS.length)])
        : undefined,
    untidy: fault?.kind === 'card-untidy' ? fault.style : undefined,
  });
}
