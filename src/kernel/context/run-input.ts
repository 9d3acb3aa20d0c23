/**
 * Checks a run's input before the first turn, so that bad input ends the run at once with a
 * one-line reason naming the field, instead of failing somewhere in the middle.
 */
import type { KernelLimits, RunInput } from '../../contract/kernel-api.ts';
import { resolveLimits } from './limits.ts';

const HASH = /^[0-9a-f]{64}$/;

/**
 * Returns the run's resolved limits (the contract: the run may name any of them, the rest are
 * the defaults); throws an Error naming the first bad field.
 */
export function checkRunInput(input: RunInput): KernelLimits {
  if (input === null || typeof input !== 'object') throw new Error('input must be a RunInput object');
  requireText(input.runId, 'runId', false);
  requireText(input.systemPrompt, 'systemPrompt', true);
  requireText(input.userRequest, 'userRequest', false);
  requireText(input.settings?.agent?.model, 'settings.agent.model', false);
  for (const role of ['compaction', 'judge'] as const) {
    const model = input.settings[role]?.model;
    if (model !== undefined) requireText(model, `settings.${role}.model`, false);
  }
  requireCount(input.maxTurns, 'maxTurns', 1);
  const resolved = resolveLimits(input.limits);
  if (input.resume !== undefined) checkResume(input.resume);
  return resolved;
}

function checkResume(resume: NonNullable<RunInput['resume']>): void {
  if (!Array.isArray(resume.messages)) throw new Error('resume.messages must be an array');
  if (resume.messages[0]?.role !== 'system') throw new Error('resume.messages[0] must be the system prompt');
  if (resume.messages[1]?.role !== 'user') throw new Error("resume.messages[1] must be the user's request");
  const counters = resume.counters;
  if (counters === null || typeof counters !== 'object') throw new Error('resume.counters must be an object');
  for (const field of ['turns', 'totalRequestBytes', 'compactions', 'compactionFailures'] as const) {
    requireCount(counters[field], `resume.counters.${field}`, 0);
  }
  requireCount(counters.executions, 'resume.counters.executions', 1);
  requireCount(resume.journal?.nextSeq, 'resume.journal.nextSeq', 1);
  if (typeof resume.journal.headHash !== 'string' || !HASH.test(resume.journal.headHash)) {
    throw new Error('resume.journal.headHash must be 64 lowercase hex digits');
  }
}

function requireText(value: unknown, field: string, mayBeEmpty: boolean): void {
  if (typeof value !== 'string' || (!mayBeEmpty && value.trim() === '')) {
    throw new Error(`${field} must be a ${mayBeEmpty ? '' : 'non-empty '}string, got ${JSON.stringify(value)}`);
  }
}

function requireCount(value: unknown, field: string, min: number): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new Error(`${field} must be an integer >= ${min}, got ${JSON.stringify(value)}`);
  }
}
