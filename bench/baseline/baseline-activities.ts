/**
 * The baseline's activities: the answers of a run's plan and its tool outputs, made before the
 * clock starts and handed back from memory. No HTTP, no MSW, no validation, no recording.
 */

import { extractIdentifiers, type RunPlan, toolOutput, writeCard } from '../../mocks/index.ts';
import { ACTIVITY, type CallModelResult, type CompactContextInput, GENESIS_HASH } from '../../src/contract/kernel-api.ts';
import type { ContentPart } from '../../src/contract/messages.ts';
import { journalAppend } from '../../src/kernel/activities/journal-append.ts';
import { buildDigest } from '../../src/kernel/context/digest.ts';
import type { KernelActivities } from '../../src/kernel/index.ts';
import type { BaselineActivities } from './baseline-types.ts';

export interface PreparedRun {
  plan: RunPlan;
  /** Tool output per call id. */
  outputs: Map<string, string | ContentPart[]>;
}

/** Generates every tool output of the plan (PNG encoding included) ahead of time. */
export function prepareRun(plan: RunPlan): PreparedRun {
  const outputs = new Map<string, string | ContentPart[]>();
  for (const turn of plan.turns) for (const call of turn.calls) outputs.set(call.id, toolOutput(call.tool, call.args));
  return { plan, outputs };
}

const BARE_COMPACTION_MODEL = 'longrun-compactor';
const NO_USAGE = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

/**
 * The kernel's own activities with the same answers from memory: its real journal (a hash chain,
 * in process), and the compaction model's card written in process from the kernel's own digest,
 * as the mock writes it, with no HTTP. With them the kernel's workflow runs bare: its decisions
 * and its Temporal traffic, no harness.
 */
export function createBareKernelActivities(runs: ReadonlyMap<string, PreparedRun>, onTurn?: () => void): KernelActivities {
  const { call_model, run_tool } = createBaselineActivities(runs, onTurn);
  return {
    [ACTIVITY.callModel]: call_model,
    [ACTIVITY.runTool]: run_tool,
    [ACTIVITY.journalAppend]: journalAppend,
    [ACTIVITY.compactContext]: async (input: CompactContextInput) => {
      const digest = buildDigest(input.messages);
      return { card: writeCard(extractIdentifiers(digest), { maxBytes: input.cardMaxBytes }), model: BARE_COMPACTION_MODEL };
    },
  };
}

/** `onTurn`: called at every model call (the steady section counts turns as they begin). */
export function createBaselineActivities(runs: ReadonlyMap<string, PreparedRun>, onTurn?: () => void): BaselineActivities {
  const run = (runId: string): PreparedRun => {
    const found = runs.get(runId);
    if (!found) throw new Error(`baseline: no prepared run ${runId}`);
    return found;
  };
  return {
    async call_model({ runId, turn }): Promise<CallModelResult> {
      onTurn?.();
      const turns = run(runId).plan.turns;
      const planned = turns[Math.min(turn, turns.length) - 1];
      if (!planned) throw new Error(`baseline: ${runId} has no turn ${turn}`);
      return { message: planned.message, usage: NO_USAGE };
    },
    async run_tool({ runId, call }) {
      const content = run(runId).outputs.get(call.id);
      if (content === undefined) throw new Error(`baseline: ${runId} has no tool call ${call.id}`);
      return { tool_call_id: call.id, content };
    },
    async 'journal.append'({ events }) {
      return { hashes: events.map(() => GENESIS_HASH) };
    },
  };
}
