/**
 * A foreign workflow that closes before its first model call was most likely started with
 * arguments it does not take: a question-taking agent given the contract's RunInput object, a
 * dataclass given a string. Its record then carries one line that says how it ended, what it was
 * started with and what the scenario declares, so that the mismatch is read at once rather than
 * worked out from a failure deep in a framework ("originalInput is not iterable").
 */
import type { RunRecord } from '../result/index.ts';
import { DEFAULT_START_ARGS } from '../scenario/start-args.ts';
import { truncate } from '../shared/truncate.ts';
import type { ConversationOutcome } from './converse.ts';
import { INTERRUPTED } from './watch.ts';

/** Characters of the arguments shown at most (a RunInput's system prompt alone runs to kilobytes). */
export const START_ARGS_SHOWN = 200;
/** Characters of the end's reason shown at most (its first line). */
const REASON_SHOWN = 240;

/** How a foreign target's runs are started, as its scenario declares it. */
export interface StartDeclaration {
  workflowType: string;
  /** `target.external.args` as parsed (the default filled in). */
  template: readonly unknown[];
  /** The scenario file, as it should be named to the user; absent for a scenario built in code. */
  scenarioFile?: string | undefined;
  /** The activity whose scheduling is a model call (the mapping's `callModel`). */
  callModel: string;
}

const ENDED: Partial<Record<RunRecord['outcome'], string>> = {
  failed: 'failed',
  completed: 'completed',
  terminated: 'was terminated',
  'timed-out': 'timed out',
  canceled: 'was canceled',
};

/**
 * The line for a run that closed with no model call in its histories, or undefined: the run made
 * one, is still running (longrun gave up on it), or stopped because longrun was interrupted.
 */
export function earlyEndLine(
  record: Pick<RunRecord, 'outcome' | 'turns' | 'executions'>,
  runId: string,
  args: readonly unknown[],
  start: StartDeclaration,
): string | undefined {
  const ended = ENDED[record.outcome];
  if (ended === undefined || record.turns.length > 0) return undefined;
  const reason = record.executions.at(-1)?.reason;
  if (reason?.startsWith(INTERRUPTED)) return undefined;
  const why = reason ? `: ${truncate((reason.split('\n')[0] ?? '').trim(), REASON_SHOWN)}` : '';
  const where = start.scenarioFile ? ` in ${start.scenarioFile}` : '';
  const template = JSON.stringify(start.template);
  const fallback = JSON.stringify(DEFAULT_START_ARGS);
  const declared =
    template === fallback
      ? `target.external.args${where} is ${template}, the default: the contract's RunInput`
      : `target.external.args${where} is ${truncate(template, START_ARGS_SHOWN)}; the default is ${fallback}, the contract's RunInput`;
  return (
    `run ${runId}: ${start.workflowType} ${ended} before its first model call (no ${start.callModel} in its history)${why}; ` +
    `it was started with ${truncate(JSON.stringify(args), START_ARGS_SHOWN)} (${declared})`
  );
}

/** The line for a chat agent's run whose conversation stopped short: which message, and why. */
export function conversationEndLine(runId: string, conversation: Required<ConversationOutcome>, workflowType = 'the workflow'): string {
  return `run ${runId}: ${workflowType} answered ${conversation.answered} of its ${conversation.messages} messages; longrun stopped the conversation at ${conversation.problem}`;
}
