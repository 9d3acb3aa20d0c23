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
import { hasBlocks } from './conversation.ts';
import { type CutArray, cutArray, type MessageArray } from './message-spans.ts';
import { chatRequestSummary, MessageInterner, messageText, sha256 } from './messages.ts';
import type { ActivityInput, ActivityResult, JournalEntry, MessageSummary, RunInputSummary } from './model.ts';
import { decodePayload, jsonPlainBytes } from './payloads.ts';
import { isRecord, toBuffer } from './proto-values.ts';

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
   * Chat messages without content blocks by their JSON text, as the next request re-sends them
   * (the answer, the tool results, every message a request's bytes held): the same text parses
   * to the same message, whose summary this is, so a request's new message found here is not
   * parsed. Only what `cutMessages` would accept is put here.
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

  /** The buffer the next request decodes into, `length` bytes or more. */
  private scratch(length: number): Buffer {
    const index = this.nextBuffer;
    this.nextBuffer = 1 - index;
    if ((this.buffers[index] as Buffer).length < length) this.buffers[index] = Buffer.allocUnsafe(Math.ceil(length * 1.25));
    return this.buffers[index] as Buffer;
  }

  /** The summaries of the cut-out messages: the shared ones from the earlier request, the others parsed. */
  private cutMessages({ array, shared }: CutArray, earlier: readonly MessageSummary[]): MessageSummary[] | undefined {
    const messages = earlier.slice(0, shared);
    for (let index = shared; index < array.spans.length; index++) {
      const [start, end] = array.spans[index] as [number, number];
      const text = array.bytes.toString('utf8', start, end);
      let summary = this.chatTexts.get(text);
      if (!summary) {
        const message: unknown = JSON.parse(text);
        if (!isRecord(message) || typeof message.role !== 'string' || hasBlocks(message)) return undefined;
        summary = this.interner.summarize(message);
        this.chatTexts.set(text, summary);
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
          recentToolIdentifiers: raw === undefined ? [] : recentToolIdentifiers(raw),
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
        if (isRecord(answer) && answer.role === 'assistant' && !hasBlocks(answer)) this.chatTexts.set(JSON.stringify(answer), summary);
        return { kind: 'call-model', answer: summary };
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
        if (!hasBlocks(message)) this.chatTexts.set(json, summary);
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

function recentToolIdentifiers(messages: readonly unknown[]): string[][] {
  const recent: string[][] = [];
  for (let i = messages.length - 1; i >= 0 && recent.length < RECENT_TOOL_OUTPUTS_KEPT; i--) {
    const message = messages[i];
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
