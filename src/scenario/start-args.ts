/**
 * How a foreign target's run begins: the arguments its workflow is started with, as a template
 * over the run. A team's agent takes what its own signature says (a question as a string, a
 * dataclass of its own); the contract's `RunInput` is only the default. A string that is one
 * placeholder alone becomes that value, of any JSON type; placeholders inside a longer string are
 * written in as text. The user request carries the run marker, so an agent that forwards it to
 * its model is tied to its run's plan.
 */
import { z } from 'zod';

/** What a template may name, with what each stands for. */
export const START_PLACEHOLDERS = {
  userRequest: "the run's user request, ending with its run marker [longrun-run:<runId>]",
  systemPrompt: "the run's system prompt",
  runId: "longrun's run id (<scenario>-run-0007)",
  maxTurns: 'runs.maxTurns, a number',
  runInput: "the contract's RunInput object, whole",
} as const;

export type StartPlaceholder = keyof typeof START_PLACEHOLDERS;
export type StartValues = Record<StartPlaceholder, unknown>;

/** What a conversation's message template (`conversation.send.args`) may name besides the start's. */
export const MESSAGE_PLACEHOLDERS = {
  ...START_PLACEHOLDERS,
  message: "the user's message: the first is the user request (with its run marker), the later ones ask on",
  messageNumber: "the message's number in the run's conversation, from 1",
  chatLength:
    "how many items the earlier messages' update results held (a list counts its items, anything else 1; 0 for signals): the chat a client has seen",
} as const;

export type MessagePlaceholder = keyof typeof MESSAGE_PLACEHOLDERS;
export type MessageValues = Record<MessagePlaceholder, unknown>;

const PLACEHOLDER = /\{\{\s*([A-Za-z]+)\s*\}\}/g;
const WHOLE_PLACEHOLDER = /^\{\{\s*([A-Za-z]+)\s*\}\}$/;

/** The default: the contract's RunInput as the one argument. */
export const DEFAULT_START_ARGS: readonly unknown[] = ['{{runInput}}'];

/** Every placeholder a template names, with its path. */
function placeholdersIn(template: unknown, path: (string | number)[] = []): { path: (string | number)[]; name: string }[] {
  if (typeof template === 'string') return [...template.matchAll(PLACEHOLDER)].map((m) => ({ path, name: m[1] as string }));
  if (Array.isArray(template)) return template.flatMap((item, index) => placeholdersIn(item, [...path, index]));
  if (typeof template === 'object' && template !== null) {
    return Object.entries(template).flatMap(([key, value]) => placeholdersIn(value, [...path, key]));
  }
  return [];
}

const jsonValue: z.ZodType<unknown> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]),
);

/** A JSON template of arguments over the placeholders given, each explained in the schema's description. */
export function argsTemplateSchema(placeholders: Readonly<Record<string, string>>, fallback: readonly unknown[], what: string) {
  const listed = Object.entries(placeholders)
    .map(([key, meaning]) => `{{${key}}} ${meaning}`)
    .join('; ');
  return z
    .array(jsonValue)
    .default([...fallback])
    .superRefine((args, ctx) => {
      for (const { path, name } of placeholdersIn(args).filter((p) => !Object.hasOwn(placeholders, p.name))) {
        const known = Object.keys(placeholders)
          .map((key) => `{{${key}}}`)
          .join(', ');
        ctx.addIssue({ code: 'custom', path, message: `{{${name}}} is not a placeholder (${known})` });
      }
    })
    .describe(`${what}, a JSON template over the run: ${listed} (default ${JSON.stringify(fallback).replaceAll('"', '')})`);
}

export const startArgsSchema = argsTemplateSchema(START_PLACEHOLDERS, DEFAULT_START_ARGS, "the workflow's arguments");

/** The template with the run's values in it; a placeholder with no value stays as written. */
export function renderTemplate(template: readonly unknown[], values: Readonly<Record<string, unknown>>): unknown[] {
  return template.map((item) => render(item, values));
}

/** The start template with the run's values in it. */
export function renderStartArgs(template: readonly unknown[], values: StartValues): unknown[] {
  return renderTemplate(template, values);
}

function render(template: unknown, values: Readonly<Record<string, unknown>>): unknown {
  const known = (name: string | undefined): name is string => name !== undefined && Object.hasOwn(values, name);
  if (typeof template === 'string') {
    const whole = WHOLE_PLACEHOLDER.exec(template)?.[1];
    if (known(whole)) return values[whole];
    return template.replace(PLACEHOLDER, (match, name: string) => {
      if (!known(name)) return match;
      const value = values[name];
      return typeof value === 'string' ? value : JSON.stringify(value);
    });
  }
  if (Array.isArray(template)) return template.map((item) => render(item, values));
  if (typeof template === 'object' && template !== null) {
    return Object.fromEntries(Object.entries(template).map(([key, value]) => [key, render(value, values)]));
  }
  return template;
}

/** Whether the template hands the workflow the user request (and with it the run marker the mock ties requests by). */
export function carriesUserRequest(template: readonly unknown[]): boolean {
  return placeholdersIn(template).some(({ name }) => name === 'userRequest' || name === 'runInput');
}

/** Whether a message template hands the workflow the message. */
export function carriesMessage(template: readonly unknown[]): boolean {
  return placeholdersIn(template).some(({ name }) => name === 'message');
}
