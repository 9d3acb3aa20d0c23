import { describe, expect, it } from 'vitest';
import { externalTargetSchema } from './external-target.ts';
import { renderTemplate } from './start-args.ts';

const target = (fields: Record<string, unknown>) =>
  externalTargetSchema.safeParse({ ...fields, binaries: { 'py-v1': { worker: { argv: ['w'] } } } });
const issues = (fields: Record<string, unknown>) => target(fields).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

describe('target.external.conversation', () => {
  const chat = {
    messages: 3,
    send: { update: 'process_user_message', args: [{ user_input: '{{message}}', chat_length: '{{chatLength}}' }] },
  };

  it('takes a workflow started with nothing: its first message is the user request', () => {
    expect(target({ args: [], conversation: chat }).success).toBe(true);
    expect(issues({ args: [] })).toEqual([expect.stringMatching(/^args: names neither .*or as the first message of a conversation\)$/)]);
  });

  it('defaults the message to the one argument, and ends the run by terminating it unless a handler is named', () => {
    const parsed = target({ conversation: { messages: 2, send: { signal: 'user_message' } } });
    expect(parsed.data?.conversation).toEqual({ messages: 2, send: { signal: 'user_message', args: ['{{message}}'] } });
  });

  it('refuses a message template without the message, a placeholder it does not know, one message, and two handlers', () => {
    expect(issues({ conversation: { ...chat, send: { update: 'u', args: ['{{userRequest}}'] } } })).toEqual([
      'conversation.send.args: names no {{message}}: each message must reach the workflow',
    ]);
    expect(issues({ conversation: { ...chat, send: { update: 'u', args: ['{{message}}', '{{turn}}'] } } })?.[0]).toMatch(
      /^conversation\.send\.args\.1: \{\{turn\}\} is not a placeholder \(.*\{\{message\}\}, \{\{messageNumber\}\}, \{\{chatLength\}\}\)$/,
    );
    expect(issues({ conversation: { ...chat, messages: 1 } })?.[0]).toMatch(/^conversation\.messages: /);
    expect(target({ conversation: { ...chat, send: { update: 'u', signal: 's' } } }).success).toBe(false);
  });

  it("renders a message's arguments with the message, its number and the chat's length", () => {
    const values = { message: 'Next: rain?', messageNumber: 2, chatLength: 4, runId: 'r-1' };
    expect(renderTemplate(chat.send.args, values)).toEqual([{ user_input: 'Next: rain?', chat_length: 4 }]);
  });
});
