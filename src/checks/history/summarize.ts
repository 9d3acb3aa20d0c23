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
import { MessageInterner, messageText, sha256 } from './messages.ts';
import type { ActivityInput, ActivityResult, JournalEntry, RunInputSummary } from './model.ts';
import { isRecord } from './proto-values.ts';

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

  constructor(private readonly mapping: KernelMapping) {}

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
        return { kind: 'call-model', answer: this.interner.summarizeAnswer(required(results, paths.callModelAnswer)) };
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
        return { kind: 'run-tool', message: this.interner.summarize(message) };
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
