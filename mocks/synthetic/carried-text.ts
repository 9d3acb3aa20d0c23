/**
 * The bytes a planned tool call's output would have added to the conversation, and text that
 * carries them instead: when the agent's own tools answer in a few bytes (a weather string),
 * the model's answer grows by what the sandbox's output would have weighed, so that the run's
 * context still grows as planned (and TMPRL1103 and the history limit arrive on time).
 */
import type { PlannedCall, RunPlan } from './plan-run.ts';
import { turnText } from './prose.ts';
import { hash32, Rng } from './random.ts';
import { toolContentWireBytes } from './tool-output.ts';

/**
 * The JSON bytes the call's output would add to a serialized context, without the quotes of its
 * value: a text output's `bytes` plus its format's JSON escaping, a screenshot's caption, page
 * text and base64 data URL as they serialize (see toolContentWireBytes).
 */
export function carriedBytes(call: PlannedCall): number {
  return toolContentWireBytes(call.tool, call.args) - 2;
}

const SEPARATOR = '\n\n';

/**
 * Exactly `bytes` UTF-8 bytes that continue a turn's text: a paragraph break, then the agent
 * reasoning at length in the run's words and language mix. Seeded by run and turn, so the same
 * turn always carries the same text.
 */
export function carriedText(plan: RunPlan, turn: number, bytes: number): string {
  if (bytes <= SEPARATOR.length) return ' '.repeat(Math.max(0, bytes));
  const rng = new Rng(hash32(plan.seed, plan.runId, turn, 'carried'));
  return `${SEPARATOR}${turnText(plan.story, [], 1, rng, plan.textMix, bytes - SEPARATOR.length)}`;
}
