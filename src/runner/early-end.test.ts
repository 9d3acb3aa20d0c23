import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../result/index.ts';
import { earlyEndLine, START_ARGS_SHOWN, type StartDeclaration } from './early-end.ts';
import { INTERRUPTED } from './watch.ts';

const RUN = 'agents-sdk-py-run-0001';
const QUESTION = `What is the weather in Tokyo? [longrun-run:${RUN}]`;
const RUN_INPUT = { runId: RUN, systemPrompt: 'You are a careful engineer. '.repeat(40), userRequest: QUESTION, maxTurns: 20 };

function ended(outcome: RunRecord['outcome'], reason?: string, turns = 0): Pick<RunRecord, 'outcome' | 'turns' | 'executions'> {
  return {
    outcome,
    turns: Array.from({ length: turns }, (_, i) => ({ turn: i + 1, execution: 1, requestBytes: 900 })),
    executions: [{ temporalRunId: 'r-1', historyBytes: 2_000, events: 5, closedBy: outcome, ...(reason ? { reason } : {}) }],
  };
}

const declared = (template: unknown[]): StartDeclaration => ({
  workflowType: 'ToolsWorkflow',
  template,
  scenarioFile: 'scenarios/x.yaml',
  callModel: 'invoke_model_activity',
});

describe('earlyEndLine', () => {
  it('a workflow that fails at once on the RunInput object: how it ended, the RunInput cut at 200 characters, the default named', () => {
    const line = earlyEndLine(
      ended('failed', 'Agent workflow failed: originalInput is not iterable\n  at run (workflows.ts:12)'),
      RUN,
      [RUN_INPUT],
      declared(['{{runInput}}']),
    );
    const shown = JSON.stringify([RUN_INPUT]).slice(0, START_ARGS_SHOWN);
    expect(line).toBe(
      `run ${RUN}: ToolsWorkflow failed before its first model call (no invoke_model_activity in its history): ` +
        `Agent workflow failed: originalInput is not iterable; it was started with ${shown}… (${JSON.stringify([RUN_INPUT]).length - START_ARGS_SHOWN} more characters) ` +
        `(target.external.args in scenarios/x.yaml is ["{{runInput}}"], the default: the contract's RunInput)`,
    );
  });

  it('a workflow that completes at once on its own template: the arguments whole, the template beside the default', () => {
    expect(earlyEndLine(ended('completed'), RUN, [QUESTION], declared(['{{userRequest}}']))).toBe(
      `run ${RUN}: ToolsWorkflow completed before its first model call (no invoke_model_activity in its history); ` +
        `it was started with ["${QUESTION}"] ` +
        `(target.external.args in scenarios/x.yaml is ["{{userRequest}}"]; the default is ["{{runInput}}"], the contract's RunInput)`,
    );
  });

  it('a terminated run says so with its reason; a scenario built in code names no file', () => {
    const line = earlyEndLine(ended('terminated', 'workflow task failed 3 times: TypeError'), RUN, [QUESTION], {
      ...declared(['{{userRequest}}']),
      scenarioFile: undefined,
    });
    expect(line).toMatch(
      /^run \S+: ToolsWorkflow was terminated before its first model call \(no \S+ in its history\): workflow task failed 3 times: TypeError;/,
    );
    expect(line).toContain('(target.external.args is ["{{userRequest}}"]; the default is');
  });

  it('says nothing of a run that made a model call, is still running, or was stopped by an interrupt', () => {
    expect(earlyEndLine(ended('failed', 'boom', 1), RUN, [QUESTION], declared(['{{userRequest}}']))).toBeUndefined();
    expect(earlyEndLine(ended('running'), RUN, [QUESTION], declared(['{{userRequest}}']))).toBeUndefined();
    expect(earlyEndLine(ended('terminated', `${INTERRUPTED} (SIGINT)`), RUN, [QUESTION], declared(['{{userRequest}}']))).toBeUndefined();
  });

  it('never cuts a character in half', () => {
    const emoji = '😀'.repeat(150);
    const line = earlyEndLine(ended('failed'), RUN, [emoji], declared(['{{userRequest}}'])) ?? '';
    const args = line.slice(line.indexOf('started with ') + 'started with '.length, line.indexOf('…'));
    expect(args.length).toBeLessThanOrEqual(START_ARGS_SHOWN);
    expect(args).toBe(`["${'😀'.repeat((START_ARGS_SHOWN - 2) / 2)}`.slice(0, args.length));
    expect(/[\uD800-\uDBFF]$/.test(args)).toBe(false);
  });
});
