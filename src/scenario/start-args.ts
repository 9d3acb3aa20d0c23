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

const PLACEHOLDER = /\{\{\s*([A-Za-z]+)\s*\}\}/g;
const WHOLE_PLACEHOLDER = /^\{\{\s*([A-Za-z]+)\s*\}\}$/;

/** The default: the contract's RunInput as the one argument. */
export const DEFAULT_START_ARGS: readonly unknown[] = ['{{runInput}}'];

const isKnown = (name: string): name is StartPlaceholder => Object.hasOwn(START_PLACEHOLDERS, name);

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

export const startArgsSchema = z
  .array(jsonValue)
  .default([...DEFAULT_START_ARGS])
  .superRefine((args, ctx) => {
    for (const { path, name } of placeholdersIn(args).filter((p) => !isKnown(p.name))) {
      const known = Object.keys(START_PLACEHOLDERS)
        .map((key) => `{{${key}}}`)
        .join(', ');
      ctx.addIssue({ code: 'custom', path, message: `{{${name}}} is not a placeholder (${known})` });
    }
  })
  .describe(
    `the workflow's arguments, a JSON template over the run: ${Object.entries(START_PLACEHOLDERS)
      .map(([key, what]) => `{{${key}}} ${what}`)
      .join('; ')} (default [{{runInput}}])`,
  );

/** The template with the run's values in it. */
export function renderStartArgs(template: readonly unknown[], values: StartValues): unknown[] {
  return template.map((item) => render(item, values));
}

function render(template: unknown, values: StartValues): unknown {
  if (typeof template === 'string') {
    const whole = WHOLE_PLACEHOLDER.exec(template)?.[1];
    if (whole !== undefined && isKnown(whole)) return values[whole];
    return template.replace(PLACEHOLDER, (match, name: string) => {
      if (!isKnown(name)) return match;
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
