/**
 * `target.external.conversation`: a chat agent's run is several user messages, not one. Its
 * workflow lasts and takes each message by an update (answered when the agent has replied) or
 * a signal; longrun sends the next message once the last is answered, and after the last ends
 * the run as the scenario says. The first message is the user request: it goes with the start
 * when `args` hands the workflow the user request, else it is the first message sent.
 */
import { z } from 'zod';
import { argsTemplateSchema, carriesMessage, MESSAGE_PLACEHOLDERS } from './start-args.ts';

const handlerSchema = z.union([
  z.strictObject({ update: z.string().min(1).describe("the workflow's update handler, by name") }),
  z.strictObject({ signal: z.string().min(1).describe("the workflow's signal handler, by name") }),
]);

const DEFAULT_MESSAGE_ARGS = ['{{message}}'];

export const conversationSchema = z
  .strictObject({
    /** The user messages each run holds, the user request first. */
    messages: z.int().min(2).max(1000).describe('the user messages each run holds, the user request first (2 or more)'),
    /** How each message arrives: an update longrun waits on, or a signal. */
    send: handlerSchema
      .and(
        z.object({
          args: argsTemplateSchema(MESSAGE_PLACEHOLDERS, DEFAULT_MESSAGE_ARGS, "the handler's arguments"),
        }),
      )
      .describe(
        "how each message arrives: { update: name } (longrun sends the next message when the update returns) or { signal: name } (when the mock model has given the message's final answer), with args, a template over the message",
      ),
    /** After the last message: a handler that ends the workflow, or longrun terminates it. */
    end: handlerSchema
      .and(z.object({ args: argsTemplateSchema(MESSAGE_PLACEHOLDERS, [], "the handler's arguments") }))
      .optional()
      .describe(
        "after the last message is answered: a handler that makes the workflow end ({ update|signal: name, args }); without one longrun terminates the run, as the conversation's end",
      ),
  })
  .superRefine((conversation, ctx) => {
    if (!carriesMessage(conversation.send.args)) {
      ctx.addIssue({ code: 'custom', path: ['send', 'args'], message: 'names no {{message}}: each message must reach the workflow' });
    }
  })
  .describe('a chat agent: its run holds several user messages, each sent by an update or a signal');

export type Conversation = z.infer<typeof conversationSchema>;
