/**
 * `target.external`: the binaries of a worker longrun did not write (a Go, Python or Java
 * kernel), each a command that starts its worker and one that replays its histories. The map's
 * order is the release order (older first): every binary's histories must replay on the later
 * ones, except a broken control's (`breaks:` names the release it breaks). Paths are relative
 * to the scenario file's folder; longrun hands each worker the cluster, its task queue and the
 * mocks through its environment (contract/README.md).
 */
import { z } from 'zod';
import { checkToolMap } from '../../mocks/index.ts';
import { TOOL_NAMES } from '../contract/messages.ts';
import { conversationSchema } from './conversation.ts';
import { carriesUserRequest, startArgsSchema } from './start-args.ts';

export const commandSchema = z
  .strictObject({
    /** The program and its arguments, run without a shell. */
    argv: z.array(z.string().min(1)).min(1),
    /** The working directory, relative to the scenario file's folder (default: that folder). */
    cwd: z.string().min(1).optional(),
    /** Added to the environment longrun gives it. */
    env: z.record(z.string(), z.string()).optional(),
  })
  .describe('a command: argv (program first), cwd relative to the scenario file, env added');

/** A foreign binary's name: what expectations (`on:`) and reports call it. */
const FOREIGN_BINARY_NAME = /^[a-z0-9][a-z0-9.-]*$/;
const NAME_RULE = 'a name of lowercase letters, digits, dots and dashes (go-v1)';
export const foreignBinaryNameSchema = z.string().regex(FOREIGN_BINARY_NAME, NAME_RULE);

const foreignBinarySchema = z.strictObject({
  /** Starts the worker; it polls the task queue in LONGRUN_TASK_QUEUE until SIGTERM. */
  worker: commandSchema,
  /** Replays histories: longrun appends the files; exit 0 when all replay, else its last stderr line says why. */
  replay: commandSchema.optional(),
  /** A deliberately broken control: the binary (release) it breaks. Its histories replay on itself only. */
  breaks: foreignBinaryNameSchema.optional(),
  /** false: no runs start on it; it joins only through chaos (upgrade-worker or kill-worker `to`). */
  startsRuns: z
    .boolean()
    .default(true)
    .describe('false: no runs start on it; only a chaos step (upgrade-worker, kill-worker to) brings it in'),
});

export const externalTargetSchema = z
  .strictObject({
    /** The workflow type its runs start (the contract's by default). */
    workflowType: z.string().min(1).default('agentRun'),
    /** Its workflow's arguments, a template over the run (start-args.ts); the contract's RunInput by default. */
    args: startArgsSchema,
    /** A chat agent: each run holds several user messages, sent by an update or a signal (conversation.ts). */
    conversation: conversationSchema.optional(),
    /** The agent's own tools whose backends call LONGRUN_SANDBOX_URL, each with the sandbox tool it forwards to. */
    tools: z
      .record(z.string(), z.enum(TOOL_NAMES))
      .optional()
      .describe(
        "the agent's tools whose backends forward to the sandbox (LONGRUN_SANDBOX_URL), each with its sandbox tool: { get_page: screenshot }; the model plays the plan's calls of that tool as calls of the agent's, with the sandbox's arguments",
      ),
    /** A JSON kernel mapping (`longrun check --mapping`), relative to the scenario file: how its histories are read. */
    mapping: z.string().min(1).optional(),
    /** Run once before any worker starts (e.g. `go build`); a failure stops the scenario. */
    build: commandSchema.optional(),
    /** Its binaries, oldest release first. */
    binaries: z.record(z.string(), foreignBinarySchema),
  })
  .superRefine((target, ctx) => {
    // A conversation's first message is the user request when the start does not carry it.
    if (!carriesUserRequest(target.args) && !target.conversation) {
      ctx.addIssue({
        code: 'custom',
        path: ['args'],
        message:
          'names neither {{userRequest}} nor {{runInput}}: the mock model ties each request to its run by the run marker at the end of the user request, so the workflow must be given it (at its start, or as the first message of a conversation)',
      });
    }
    try {
      checkToolMap(target.tools ?? {});
    } catch (error) {
      ctx.addIssue({ code: 'custom', path: ['tools'], message: (error as Error).message.replace(/^toolMap\./, '') });
    }
    const names = Object.keys(target.binaries);
    if (names.length === 0) ctx.addIssue({ code: 'custom', path: ['binaries'], message: 'needs at least one binary' });
    else if (launchedBinaries(target).length === 0) {
      ctx.addIssue({ code: 'custom', path: ['binaries'], message: 'needs a binary that starts runs (startsRuns is false on every one)' });
    }
    for (const [name, binary] of Object.entries(target.binaries)) {
      // Checked here, not by the record's key schema, whose message would not name the rule.
      if (!FOREIGN_BINARY_NAME.test(name)) ctx.addIssue({ code: 'custom', path: ['binaries', name], message: NAME_RULE });
      if (binary.breaks !== undefined && !names.includes(binary.breaks)) {
        ctx.addIssue({
          code: 'custom',
          path: ['binaries', name, 'breaks'],
          message: `names no binary of this target (${names.join(', ')})`,
        });
      }
    }
  })
  .describe("a worker longrun did not write: its binaries' commands, how to read its histories");

/** The binaries runs start on, in release order (those with `startsRuns: false` only join through chaos). */
export function launchedBinaries(target: Pick<ExternalTarget, 'binaries'>): string[] {
  return Object.entries(target.binaries)
    .filter(([, binary]) => binary.startsRuns !== false)
    .map(([name]) => name);
}

export type ForeignCommandInput = z.infer<typeof commandSchema>;
export type ExternalTarget = z.infer<typeof externalTargetSchema>;
