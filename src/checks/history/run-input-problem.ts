/**
 * Whether a workflow input is a RunInput every kernel must take, read by the checks themselves
 * (never through a kernel's validation), and strictly: texts that must name something are
 * non-empty, counts are positive safe integers, limits are known fields with positive values.
 * A kernel may refuse less than this; it may not refuse this.
 */
import type { KernelLimits } from '../../contract/kernel-api.ts';
import { isRecord } from './proto-values.ts';

/** Every limit of the contract: the type makes the list whole. */
const LIMITS: Record<keyof KernelLimits, true> = {
  blobLimitBytes: true,
  compactionTriggerBytes: true,
  continueAsNewBytes: true,
  cardMaxBytes: true,
  tailMaxBytes: true,
};

const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';
const isPositiveCount = (value: unknown): boolean => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/** The first reason the input is not one every kernel must take; null when it is. */
export function runInputProblem(input: Record<string, unknown>): string | null {
  if (!isText(input.runId)) return 'runId is not a non-empty string';
  if (typeof input.systemPrompt !== 'string') return 'systemPrompt is not a string';
  if (!isText(input.userRequest)) return 'userRequest is not a non-empty string';
  const settings = isRecord(input.settings) ? input.settings : {};
  for (const role of ['agent', 'compaction', 'judge']) {
    const model = isRecord(settings[role]) ? settings[role].model : undefined;
    if ((role === 'agent' || model !== undefined) && !isText(model)) return `settings.${role}.model is not a non-empty string`;
  }
  if (!isPositiveCount(input.maxTurns)) return 'maxTurns is not a positive integer';
  if (input.limits !== undefined) {
    if (!isRecord(input.limits)) return 'limits is not an object';
    for (const [field, value] of Object.entries(input.limits)) {
      if (!Object.hasOwn(LIMITS, field)) return `limits.${field} is not a limit of the contract`;
      if (!isPositiveCount(value)) return `limits.${field} is not a positive integer`;
    }
  }
  // What a ContinueAsNew carries is the kernel's own to check (can.carry-over judges it).
  if (input.resume !== undefined) return 'it carries a resume';
  return null;
}
