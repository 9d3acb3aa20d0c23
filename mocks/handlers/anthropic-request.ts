/**
 * Reading an Anthropic Messages request (POST /v1/messages): `system` stands apart from the
 * user and assistant `messages`, whose content is a string or blocks (text, tool_use,
 * tool_result, image).
 */
import { z } from 'zod';
import { parseBody } from './json-body.ts';
import { fromMetadata, type ModelRequest, metadataSchema, offeredTool, partsText } from './wire-format.ts';

const blocks = z.array(z.looseObject({ type: z.string() }));
const schema = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.number().int().positive(),
  system: z.union([z.string(), blocks]).optional(),
  messages: z.array(z.looseObject({ role: z.enum(['user', 'assistant']), content: z.union([z.string(), blocks]) })).min(1),
  stream: z.boolean().optional(),
  metadata: metadataSchema,
  tools: z.array(z.looseObject({ type: z.string().optional() })).optional(),
});

type Content = z.infer<typeof schema>['messages'][number]['content'];

export function readAnthropicRequest(text: string, compactionModels: readonly string[]): ModelRequest {
  const parsed = parseBody(text, schema);
  const { messages } = parsed;
  return {
    model: parsed.model,
    stream: parsed.stream === true,
    bytes: Buffer.byteLength(text),
    ...fromMetadata(parsed.metadata, parsed.model, compactionModels),
    firstUserText: partsText(messages.find((m) => m.role === 'user')?.content, ['text']),
    answers: messages.filter((m) => m.role === 'assistant').length,
    // Tool results come back in user messages; only those with text are the user's.
    userMessages: messages.filter((m) => m.role === 'user' && partsText(m.content, ['text']) !== '').length,
    digest: messages
      .map((m) => contentText(m.content))
      .filter((t) => t !== '')
      .join('\n'),
    maxTokens: parsed.max_tokens,
    // A client tool describes its input; Anthropic's own tools (bash, text editor...) are named by their type.
    tools: (parsed.tools ?? []).map((tool, i) => {
      const custom = tool.type === undefined || tool.type === 'custom';
      const offered = offeredTool(`body.tools.${i}`, tool, 'input_schema', custom);
      return custom ? offered : { ...offered, providerDefined: true as const };
    }),
  };
}

/** Text blocks, and the text of tool results (what the tools printed). */
function contentText(content: Content): string {
  if (typeof content === 'string') return content;
  return content
    .map((block) => (block.type === 'tool_result' ? partsText(block.content, ['text']) : partsText([block], ['text'])))
    .filter((t) => t !== '')
    .join('\n');
}
