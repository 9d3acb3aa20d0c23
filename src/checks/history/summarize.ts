/**
 * Decodes the agent-run contract out of payloads (through the kernel mapping) and keeps only
 * summaries. Each function throws a one-line reason when the payload does not hold what the
 * contract says; the caller records it as unreadable.
 */

import { extractIdentifiers } from '../../contract/identifiers.ts';
import { canonicalJson, journalHash } from '../../contract/journal-hash.ts';
import type { JournalEvent, KernelLimits } from '../../contract/kernel-api.ts';
import { DIGEST_MESSAGE_HEAD_BYTES, DIGEST_MESSAGE_TAIL_BYTES } from '../../contract/limits.ts';
import { describePath, type KernelMapping, type PayloadPath, pick } from '../mapping.ts';
import { Base64Text, type Decoded } from './base64-text.ts';
import { canonicalPieces } from './canonical-bytes.ts';
import { hasBlocks } from './conversation.ts';
import { OPEN_ARRAY, QUOTE } from './json-bytes.ts';
import { type CutArray, cutArray, cutValue, type MessageArray } from './message-spans.ts';
import { chatRequestSummary, contentParts, MessageInterner, messageText, sha256, stringContentParts } from './messages.ts';
import type { ActivityInput, ActivityResult, JournalEntry, MessageSummary, RunInputSummary } from './model.ts';
import { decodePayload, jsonPlainBytes } from './payloads.ts';
import { isRecord, toBuffer } from './proto-values.ts';
import { runInputProblem } from './run-input-problem.ts';

const CONTENT_KEY = Buffer.from('{"content":');

/** The key of a JSON text in `chatTexts`: its UTF-8 bytes, one latin1 character each. */
function bytesKey(json: string): string {
  return Buffer.from(json).toString('latin1');
}

/** How many of the most recent tool outputs sent to compaction keep their identifiers. */
export const RECENT_TOOL_OUTPUTS_KEPT = 8;

type ActivityRole = 'call-model' | 'compact-context' | 'run-tool' | 'journal-append' | 'other';

export function activityRole(mapping: KernelMapping, activityType: string): ActivityRole {
  const { activities } = mapping;
  if (activityType === activities.callModel) return 'call-model';
  if (activityType === activities.compactContext) return 'compact-context';
  if (activityType === activities.runTool) return 'run-tool';
  if (activityType === activities.journalAppend) return 'journal-append';
  return 'other';
}

function required(args: readonly unknown[], at: PayloadPath): unknown {
  const value = pick(args, at);
  if (value === undefined) throw new Error(`nothing at ${describePath(at)}`);
  return value;
}

function optionalInt(args: readonly unknown[], at: PayloadPath): number | undefined {
  const value = pick(args, at);
  return typeof value === 'number' ? value : undefined;
}

export class ContractReader {
  private readonly interner = new MessageInterner();
  /**
   * Chat messages without content blocks by their JSON's UTF-8 bytes (as a latin1 string, one
   * character a byte), as the next request re-sends them (the answer, the tool results, every
   * message a request's bytes held): the same bytes parse to the same message, whose summary this
   * is, so a request's new message found here is not parsed. Only what `cutMessages` would
   * accept is put here.
   */
  private readonly chatTexts = new Map<string, MessageSummary>();
  /** The last request read from its bytes: its messages' bytes and their summaries. */
  private earlier?: { array: MessageArray; messages: MessageSummary[] };
  /** The last request's payload text from a file and its decoding, most of which the next one repeats. */
  private earlierText?: Decoded;
  /**
   * Two buffers the requests are decoded into in turn: one holds the last request's bytes (which
   * the next request reuses), the other takes the next. Fresh memory for every 1 MB request cost
   * more (page faults) than the decoding.
   */
  private readonly buffers: Buffer[] = [Buffer.alloc(0), Buffer.alloc(0)];
  private nextBuffer = 0;

  constructor(private readonly mapping: KernelMapping) {}

  /** An activity's input read from its payloads' bytes where such a reading exists (below); undefined otherwise. */
  inputFromBytes(role: ActivityRole, payloads: readonly unknown[]): ActivityInput | undefined {
    if (role === 'call-model') return this.callModelInput(payloads);
    return role === 'compact-context' ? this.compactInput(payloads) : undefined;
  }

  /** An activity's result read from its payloads' bytes where such a reading exists (below); undefined otherwise. */
  resultFromBytes(role: ActivityRole, payloads: readonly unknown[]): ActivityResult | undefined {
    return role === 'run-tool' ? this.toolResult(payloads) : undefined;
  }

  /**
   * A call_model input read from its payloads' bytes, the messages the previous request sent
   * (the same bytes at the start of the list) taken from it unparsed: what `activityInput` makes
   * of the decoded payloads, at a fraction of the cost. Undefined when the bytes are not as
   * expected or anything fails; `activityInput` then reads (or refuses) the input as ever.
   */
  callModelInput(payloads: readonly unknown[]): ActivityInput | undefined {
    const { callModelRequest, turn } = this.mapping.paths;
    // Set again only when this request is read: it then refers to this request's bytes, which the next one keeps.
    const earlier = this.earlier;
    this.earlier = undefined;
    const bytes = jsonPlainBytes(payloads[callModelRequest.arg], (data) => {
      if (!(data instanceof Base64Text)) return toBuffer(data);
      this.earlierText = data.decodeAfter(this.earlierText, this.scratch(data.byteLength()));
      return this.earlierText.bytes;
    });
    try {
      const cut = bytes && cutArray(bytes, [...callModelRequest.path, 'messages'], earlier?.array);
      if (!cut) return undefined;
      const args = payloads.map((payload, index) => (index === callModelRequest.arg ? JSON.parse(cut.rest) : decodePayload(payload)));
      const request = pick(args, callModelRequest);
      const messages = this.cutMessages(cut, earlier?.messages ?? []);
      // Only a Chat Completions request is read this way; Anthropic's (system apart) is read whole.
      if (!isRecord(request) || request.system !== undefined || !messages) return undefined;
      this.earlier = { array: cut.array, messages };
      return { kind: 'call-model', turn: optionalInt(args, turn), request: chatRequestSummary(request, messages) };
    } catch {
      return undefined;
    }
  }

  /**
   * A compact_context input read from its payload's bytes as a request is: the messages the last
   * request sent (the same bytes at the start of the list) taken from it, the others parsed, and
   * only the most recent tool messages parsed for their identifiers. Undefined when the bytes are
   * not as expected or anything fails; `activityInput` then reads (or refuses) the input as ever.
   */
  compactInput(payloads: readonly unknown[]): ActivityInput | undefined {
    const { compactMessages, turn } = this.mapping.paths;
    if (!compactMessages) return undefined;
    const bytes = jsonPlainBytes(payloads[compactMessages.arg]);
    try {
      const cut = bytes && cutArray(bytes, compactMessages.path, this.earlier?.array);
      const messages = cut && this.cutMessages(cut, this.earlier?.messages ?? []);
      if (!cut || !messages) return undefined;
      const args = payloads.map((payload, index) => (index === compactMessages.arg ? JSON.parse(cut.rest) : decodePayload(payload)));
      const { bytes: array, spans } = cut.array;
      const toolMessage = (index: number): unknown => {
        const [start, end] = spans[index] as [number, number];
        return messages[index]?.role === 'tool' ? JSON.parse(array.toString('utf8', start, end)) : undefined;
      };
      return {
        kind: 'compact-context',
        turn: optionalInt(args, turn),
        messages,
        recentToolIdentifiers: recentToolIdentifiers(messages.length, toolMessage),
      };
    } catch {
      return undefined;
    }
  }

  /** The buffer the next request decodes into, `length` bytes or more. */
  private scratch(length: number): Buffer {
    const index = this.nextBuffer;
    this.nextBuffer = 1 - index;
    if ((this.buffers[index] as Buffer).length < length) this.buffers[index] = Buffer.allocUnsafe(Math.ceil(length * 1.25));
    return this.buffers[index] as Buffer;
  }

  /**
   * A run_tool result read from its payload's bytes, when its content is written as
   * JSON.stringify writes it: the tool message's JSON is then the content's bytes between fixed
   * ones, and its canonical JSON the same pieces, keys sorted (canonical-bytes.ts); measured and
   * hashed without making the content JavaScript strings (tool outputs are most of the text a
   * run's results carry). Undefined when the bytes are not as expected or anything fails;
   * `activityResult` then reads (or refuses) the result as ever.
   */
  toolResult(payloads: readonly unknown[]): ActivityResult | undefined {
    const { toolResult } = this.mapping.paths;
    const bytes = jsonPlainBytes(payloads[toolResult.arg]);
    try {
      const cut = bytes && cutValue(bytes, [...toolResult.path, 'content']);
      const content = cut && canonicalPieces(cut.value);
      if (!cut || !content) return undefined;
      const results = payloads.map((payload, index) => (index === toolResult.arg ? JSON.parse(cut.rest) : decodePayload(payload)));
      const result = pick(results, toolResult);
      if (!isRecord(result) || typeof result.tool_call_id !== 'string' || result.content !== '') return undefined;
      // As JSON.stringify writes { role, tool_call_id, content }, and as canonicalJson does (keys sorted).
      // Pieces, never copied into one buffer: hashed one after another, and the key made of their latin1 texts.
      const id = JSON.stringify(result.tool_call_id);
      const head = Buffer.from(`{"role":"tool","tool_call_id":${id},"content":`);
      const hash = sha256(CONTENT_KEY, ...content, Buffer.from(`,"role":"tool","tool_call_id":${id}}`));
      // A list of parts is parsed to tell Anthropic's content blocks, which a request's bytes do not read.
      const parts: unknown = cut.value[0] === OPEN_ARRAY ? JSON.parse(cut.value.toString('utf8')) : undefined;
      const summary = this.interner.summarizeHashed(
        { role: 'tool', tool_call_id: result.tool_call_id },
        hash,
        head.length + cut.value.length + 1,
        parts !== undefined ? contentParts(parts) : cut.value[0] === QUOTE ? stringContentParts(cut.value) : undefined,
      );
      if (parts === undefined || !hasBlocks({ content: parts })) {
        this.chatTexts.set(`${head.toString('latin1')}${cut.value.toString('latin1')}}`, summary);
      }
      return { kind: 'run-tool', message: summary };
    } catch {
      return undefined;
    }
  }

  /** The summaries of the cut-out messages: the shared ones from the earlier request, the others parsed. */
  private cutMessages({ array, shared }: CutArray, earlier: readonly MessageSummary[]): MessageSummary[] | undefined {
    const messages = earlier.slice(0, shared);
    for (let index = shared; index < array.spans.length; index++) {
      const [start, end] = array.spans[index] as [number, number];
      const key = array.bytes.toString('latin1', start, end);
      let summary = this.chatTexts.get(key);
      if (!summary) {
        const message: unknown = JSON.parse(array.bytes.toString('utf8', start, end));
        if (!isRecord(message) || typeof message.role !== 'string' || hasBlocks(message)) return undefined;
        summary = this.interner.summarize(message);
        this.chatTexts.set(key, summary);
      }
      messages.push(summary);
    }
    return messages;
  }

  runInput(args: readonly unknown[]): RunInputSummary {
    const input = required(args, this.mapping.paths.runInput);
    if (!isRecord(input)) throw new Error('RunInput is not an object');
    const text = (key: string): string => {
      if (typeof input[key] !== 'string') throw new Error(`RunInput.${key} is not a string`);
      return input[key] as string;
    };
    const { resume, ...fixed } = input;
    const summary: RunInputSummary = {
      runId: text('runId'),
      systemPrompt: text('systemPrompt'),
      userRequest: text('userRequest'),
      maxTurns: typeof input.maxTurns === 'number' ? input.maxTurns : 0,
      limits: isRecord(input.limits) ? (input.limits as Partial<KernelLimits>) : {},
      fixedHash: sha256(canonicalJson(fixed)),
      problem: runInputProblem(input),
    };
    if (resume !== undefined && resume !== null) {
      if (!isRecord(resume) || !isRecord(resume.counters) || !isRecord(resume.journal)) {
        throw new Error('RunInput.resume lacks counters or journal');
      }
      summary.resume = {
        messages: this.interner.summarizeAll(resume.messages),
        counters: resume.counters as unknown as NonNullable<RunInputSummary['resume']>['counters'],
        journal: resume.journal as unknown as NonNullable<RunInputSummary['resume']>['journal'],
      };
    }
    return summary;
  }

  activityInput(role: ActivityRole, args: readonly unknown[]): ActivityInput {
    const { paths } = this.mapping;
    switch (role) {
      case 'call-model':
        return {
          kind: 'call-model',
          turn: optionalInt(args, paths.turn),
          request: this.interner.summarizeRequest(required(args, paths.callModelRequest)),
        };
      case 'compact-context': {
        const raw = paths.compactMessages ? required(args, paths.compactMessages) : undefined;
        if (raw !== undefined && !Array.isArray(raw)) throw new Error('compaction messages is not an array');
        return {
          kind: 'compact-context',
          turn: optionalInt(args, paths.turn),
          messages: raw === undefined ? undefined : this.interner.summarizeAll(raw),
          recentToolIdentifiers: raw === undefined ? [] : recentToolIdentifiers(raw.length, (index) => raw[index]),
        };
      }
      case 'run-tool': {
        const id = pick(args, paths.toolCallId);
        return {
          kind: 'run-tool',
          turn: optionalInt(args, paths.turn),
          toolCallId: typeof id === 'string' ? id : undefined,
        };
      }
      case 'journal-append':
        return { kind: 'journal-append', entries: journalEntries(required(args, paths.journalEvents)) };
      case 'other':
        return { kind: 'other' };
    }
  }

  activityResult(role: ActivityRole, results: readonly unknown[]): ActivityResult {
    const { paths } = this.mapping;
    switch (role) {
      case 'call-model': {
        const answer = required(results, paths.callModelAnswer);
        const summary = this.interner.summarizeAnswer(answer);
        if (isRecord(answer) && answer.role === 'assistant' && !hasBlocks(answer))
          this.chatTexts.set(bytesKey(JSON.stringify(answer)), summary);
        const usage = paths.callModelUsage ? pick(results, paths.callModelUsage) : undefined;
        return { kind: 'call-model', answer: summary, ...(usage !== undefined && { usage }) };
      }
      case 'compact-context': {
        const card = required(results, paths.compactCard);
        if (typeof card !== 'string') throw new Error('the card is not a string');
        return { kind: 'compact-context', card };
      }
      case 'run-tool': {
        const result = required(results, paths.toolResult);
        if (!isRecord(result) || typeof result.tool_call_id !== 'string') {
          throw new Error('the tool result has no tool_call_id');
        }
        // The message the kernel appends for this result (OpenAI tool message).
        const message = { role: 'tool', tool_call_id: result.tool_call_id, content: result.content };
        const json = JSON.stringify(message);
        const summary = this.interner.summarize(message, json);
        if (!hasBlocks(message)) this.chatTexts.set(bytesKey(json), summary);
        return { kind: 'run-tool', message: summary };
      }
      case 'journal-append': {
        const hashes = paths.journalHashes ? pick(results, paths.journalHashes) : undefined;
        return {
          kind: 'journal-append',
          hashes: Array.isArray(hashes) ? hashes.map(String) : undefined,
        };
      }
      case 'other':
        return { kind: 'other' };
    }
  }
}

function journalEntries(raw: unknown): JournalEntry[] {
  const events = Array.isArray(raw) ? raw : [raw];
  return events.map((event, index) => {
    if (!isRecord(event) || typeof event.seq !== 'number' || typeof event.type !== 'string') {
      throw new Error(`journal event ${index} has no seq or type`);
    }
    const journalEvent = event as unknown as JournalEvent;
    return { event: journalEvent, hash: journalHash(journalEvent) };
  });
}

/** Over `count` messages, `messageAt` giving each (or undefined for one that is not a tool message). */
function recentToolIdentifiers(count: number, messageAt: (index: number) => unknown): string[][] {
  const recent: string[][] = [];
  for (let i = count - 1; i >= 0 && recent.length < RECENT_TOOL_OUTPUTS_KEPT; i--) {
    const message = messageAt(i);
    if (isRecord(message) && message.role === 'tool') recent.push(digestVisible(messageText(message)).flatMap(extractIdentifiers));
  }
  return recent;
}

/**
 * The parts of a message the compaction model sees: the digest caps each message to its head
 * and tail. A token cut at either edge is left out: only whole identifiers can be kept verbatim.
 */
function digestVisible(text: string): string[] {
  const bytes = Buffer.from(text);
  if (bytes.length <= DIGEST_MESSAGE_HEAD_BYTES + DIGEST_MESSAGE_TAIL_BYTES) return [text];
  const head = bytes.subarray(0, DIGEST_MESSAGE_HEAD_BYTES).toString();
  const tail = bytes.subarray(bytes.length - DIGEST_MESSAGE_TAIL_BYTES).toString();
  const tailStart = tail.search(/\s/);
  return [head.slice(0, Math.max(0, head.search(/\s\S*$/))), tailStart < 0 ? '' : tail.slice(tailStart + 1)];
}
