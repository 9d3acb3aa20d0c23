/**
 * The contract a kernel speaks to be judged by every invariant, as zod schemas typed against
 * the TypeScript types beside them (so neither can drift): the run input, the four activities'
 * payloads, the journal, and the model and sandbox wire format. `npm run schema` writes them as
 * one language-neutral JSON Schema, contract/kernel-contract.schema.json, for a Go, Python or
 * Java team to read instead of our TypeScript. Not workflow code: nothing in workflows imports it.
 */
import { z } from 'zod';
import type {
  CallModelInput,
  CallModelResult,
  CompactContextInput,
  CompactContextResult,
  JournalAppendInput,
  JournalAppendResult,
  JournalEvent,
  KernelLimits,
  RunInput,
  RunResult,
  RunToolInput,
  RunToolResult,
} from './kernel-api.ts';
import { JOURNAL_TYPES } from './kernel-api.ts';
import type { ChatRequest, ChatResponse, CompactionItem, ContentPart, Message, ToolCall } from './messages.ts';

const count = z.number().int().nonnegative();
const bytes = count.describe('UTF-8 bytes');
const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

const contentPart = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image_url'), image_url: z.object({ url: z.string().describe('a data: URL of a PNG screenshot') }) }),
]) satisfies z.ZodType<ContentPart>;

const content = z.union([z.string(), z.array(contentPart)]);

const toolCall = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string().describe('JSON text of the arguments') }),
}) satisfies z.ZodType<ToolCall>;

const assistantMessage = z.object({
  role: z.literal('assistant'),
  content: z.string().nullable(),
  tool_calls: z.array(toolCall).optional(),
});

const compactionItem = z
  .object({ role: z.literal('compaction'), id: z.string(), content: z.string().describe("the item's encrypted_content, opaque") })
  .describe(
    "the provider's compaction (the Responses API's compaction output item), sent back as it came: it stands for every message before it, which the kernel drops",
  ) satisfies z.ZodType<CompactionItem>;

const message = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content }),
  assistantMessage,
  z.object({ role: z.literal('tool'), tool_call_id: z.string(), content }),
  compactionItem,
]) satisfies z.ZodType<Message>;

const usage = z.object({ prompt_tokens: count, completion_tokens: count, total_tokens: count });

export const chatRequestSchema = z
  .object({
    model: z.string(),
    messages: z.array(message),
    tools: z
      .array(
        z.object({
          type: z.literal('function'),
          function: z.object({ name: z.string(), description: z.string(), parameters: z.record(z.string(), z.unknown()) }),
        }),
      )
      .optional(),
    stream: z.boolean().optional(),
    metadata: z
      .object({
        longrun_run_id: z.string(),
        longrun_turn: z.string(),
        longrun_purpose: z.enum(['agent', 'compaction']),
      })
      .optional()
      .describe('lets the mocks answer per run and turn; without it they derive both from the messages'),
    context_management: z
      .array(z.object({ type: z.literal('compaction'), compact_threshold: count.describe('input tokens') }))
      .optional()
      .describe('provider-side compaction: the request goes to POST {modelUrl}/responses as Responses API items instead'),
  })
  .describe('POST {modelUrl}/chat/completions: OpenAI-compatible chat completions') satisfies z.ZodType<ChatRequest>;

export const chatResponseSchema = z
  .object({
    id: z.string(),
    object: z.literal('chat.completion'),
    created: z.number(),
    model: z.string(),
    choices: z.array(z.object({ index: count, message: assistantMessage, finish_reason: z.enum(['stop', 'tool_calls', 'length']) })).min(1),
    usage,
  })
  .describe('what the mock model answers') satisfies z.ZodType<ChatResponse>;

const limits = z.object({
  blobLimitBytes: bytes,
  compactionTriggerBytes: bytes.describe('compact once a request is larger than this'),
  continueAsNewBytes: bytes.describe("continue as new once the execution's requests add up to more than this"),
  cardMaxBytes: bytes,
  tailMaxBytes: bytes,
}) satisfies z.ZodType<KernelLimits>;

const counters = z.object({
  turns: count.describe('turns completed over the whole run, across executions'),
  totalRequestBytes: bytes,
  compactions: count,
  compactionFailures: count,
  executions: count.describe('executions so far, 1 for the first'),
});

const journalHead = z.object({ nextSeq: count, headHash: sha256 });

export const runInputSchema = z
  .object({
    runId: z.string().describe("longrun's run id, the same across ContinueAsNew"),
    systemPrompt: z.string(),
    userRequest: z
      .string()
      .describe(
        "the user's request; it ends with the run marker `[longrun-run:<runId>]`, which ties the model requests of an agent that sends no longrun metadata to the run's plan",
      ),
    settings: z.object({
      agent: z.object({ model: z.string() }),
      compaction: z.object({ model: z.string().optional() }).optional(),
      judge: z.object({ model: z.string().optional() }).optional(),
    }),
    maxTurns: z.number().int().positive(),
    limits: limits.partial().optional().describe('scaled-down limits; the rest are the spec defaults'),
    resume: z
      .object({ messages: z.array(message), counters, journal: journalHead })
      .optional()
      .describe('what a ContinueAsNew carries into the fresh execution'),
  })
  .describe('the workflow input (and the ContinueAsNew input)') satisfies z.ZodType<RunInput>;

export const runResultSchema = z.object({
  runId: z.string(),
  counters,
  finalAnswer: z.string().nullable(),
  ended: z.enum(['done', 'max-turns']),
}) satisfies z.ZodType<RunResult>;

export const callModelInputSchema = z.object({
  runId: z.string(),
  turn: count,
  request: chatRequestSchema,
}) satisfies z.ZodType<CallModelInput>;
export const callModelResultSchema = z.object({
  message: assistantMessage,
  usage,
  compaction: compactionItem.optional().describe('the provider compacted the conversation: the item that now stands for it'),
}) satisfies z.ZodType<CallModelResult>;

export const compactContextInputSchema = z.object({
  runId: z.string(),
  turn: count,
  messages: z.array(message).describe('the middle of the dialog, to be compacted into the card'),
  settings: runInputSchema.shape.settings,
  cardMaxBytes: bytes,
}) satisfies z.ZodType<CompactContextInput>;
export const compactContextResultSchema = z.object({ card: z.string(), model: z.string() }) satisfies z.ZodType<CompactContextResult>;

export const runToolInputSchema = z
  .object({ runId: z.string(), turn: count, call: toolCall })
  .describe('also the body of POST {sandboxUrl}/tools/{name}') satisfies z.ZodType<RunToolInput>;
export const runToolResultSchema = z
  .object({ tool_call_id: z.string(), content })
  .describe('also what the sandbox answers') satisfies z.ZodType<RunToolResult>;

export const journalEventSchema = z
  .object({
    runId: z.string(),
    seq: count.describe("1 for the run's first event, one more for each after it, across executions"),
    type: z.enum(JOURNAL_TYPES),
    turn: count,
    data: z
      .record(z.string(), z.unknown())
      .describe(
        'per type: context.compacted {turn, bytes_before, bytes_after, card, kept, dropped}; context.compaction_failed {turn, reason}; turn.completed {turn, request_bytes, ...}; run.continued_as_new and run.completed {counters, ...}',
      ),
    prevHash: sha256.describe(
      'sha256 (hex) of the canonical JSON of the event before it (keys sorted, no whitespace, numbers as JavaScript writes them); 64 zeros for the first',
    ),
  })
  .describe('one journal event, the input of journal.append') satisfies z.ZodType<JournalEvent>;

export const journalAppendInputSchema = z.object({ events: z.array(journalEventSchema) }) satisfies z.ZodType<JournalAppendInput>;
export const journalAppendResultSchema = z.object({
  hashes: z.array(sha256).describe('the hash of each event, in order'),
}) satisfies z.ZodType<JournalAppendResult>;

/** Every schema of the contract, by the name the JSON Schema's $defs give it. */
export const CONTRACT_SCHEMAS = {
  RunInput: runInputSchema,
  RunResult: runResultSchema,
  CallModelInput: callModelInputSchema,
  CallModelResult: callModelResultSchema,
  CompactContextInput: compactContextInputSchema,
  CompactContextResult: compactContextResultSchema,
  RunToolInput: runToolInputSchema,
  RunToolResult: runToolResultSchema,
  JournalAppendInput: journalAppendInputSchema,
  JournalAppendResult: journalAppendResultSchema,
  JournalEvent: journalEventSchema,
  ChatRequest: chatRequestSchema,
  ChatResponse: chatResponseSchema,
} as const;
