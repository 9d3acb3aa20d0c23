/**
 * The failures a recorded run shows, turn by turn, as a scenario states them: the model's failed
 * attempts as agent faults (by the status their messages name), a worker that died as a
 * kill-worker chaos step. What the grammar cannot say is counted, for the scenario's comment.
 * Only statuses, counts and activity types are read: no message text goes into the scenario.
 */
import type { FaultSpec } from '../../mocks/index.ts';
import type { Activity, HistoryEvent, RunView } from '../checks/index.ts';

/** A model failure's fault, from the status its message names: `model answered HTTP 429`, `Error code: 503`. */
export function faultOfMessage(text: string): FaultSpec | undefined {
  const status = /\b(?:HTTP|status(?: code)?|Error code)\s*:?\s*([1-5]\d\d)\b/i.exec(text)?.[1] ?? /\b(429|5\d\d)\b/.exec(text)?.[1];
  switch (status) {
    case '429':
      // The source's Retry-After is not in its history; the kernel's own backoff paces the retry.
      return { kind: 'http-429', retryAfterSeconds: 0 };
    case '500':
    case '502':
      return { kind: 'http-500' };
    case '503':
      return { kind: 'http-503' };
    case '504':
      return { kind: 'timeout', maxHangMs: 0 };
    case '529':
      return { kind: 'overloaded' };
    case undefined:
      return /unreachable|ECONNRESET|socket hang up|fetch failed|connection (?:error|reset)/i.test(text) ? { kind: 'reset' } : undefined;
    default:
      return undefined;
  }
}

export type WorkerPart = 'workflows' | 'activities';

export interface RunFailures {
  /** By turn: the fault of each failed model attempt, in order (the mocks count attempts per run and turn). */
  model: Map<number, FaultSpec[]>;
  /** By turn: which part of the worker died (a workflow task or an activity timed out on it). */
  deaths: Map<number, Set<WorkerPart>>;
  /** What the scenario cannot state, in words, one entry each. */
  notCarried: string[];
}

const WORKER_GONE = /StartToClose|Heartbeat|START_TO_CLOSE|HEARTBEAT/;

/** Reads the run's failures; `modelType` is the model call's activity type (the mapping's). */
export function runFailures(run: RunView): RunFailures {
  const turns = run.executions.flatMap((execution) => execution.turns);
  const numberOf = (turn: (typeof turns)[number]) => turn.number ?? turns.indexOf(turn) + 1;
  /** The turn under way when `event` happened: the last whose model call was scheduled before it. */
  const turnAt = (execution: RunView['executions'][number], event: HistoryEvent): number => {
    const before = turns.filter(
      (t) => t.execution.number < execution.number || (t.execution === execution && (t.calls[0]?.scheduled.id ?? 0) < event.id),
    );
    const last = before.at(-1);
    return last ? numberOf(last) : 1;
  };
  const model = new Map<number, FaultSpec[]>();
  const deaths = new Map<number, Set<WorkerPart>>();
  const died = (turn: number, part: WorkerPart) => deaths.set(turn, (deaths.get(turn) ?? new Set()).add(part));
  // What is left out, counted by what it is: `model`, `timeout:<type>`, `failed:<type>`.
  const unstated = new Map<string, number>();
  const skip = (key: string, n = 1) => unstated.set(key, (unstated.get(key) ?? 0) + n);
  const modelCalls = new Set(turns.flatMap((t) => t.calls));

  for (const turn of turns) {
    const faults: FaultSpec[] = [];
    for (const call of turn.calls) {
      const failed = failedAttempts(call);
      const fault = failed.text === undefined ? undefined : faultOfMessage(failed.text);
      if (fault) faults.push(...Array.from({ length: failed.count }, () => fault));
      else skip('model', failed.count);
    }
    if (faults.length > 0) model.set(numberOf(turn), faults);
  }
  for (const execution of run.executions) {
    for (const event of execution.history.events) {
      if (event.attrs.kind === 'workflow-task' && event.attrs.phase === 'timed-out') died(turnAt(execution, event), 'workflows');
    }
    for (const activity of execution.activities) {
      const gone = activity.outcome === 'timed-out' && WORKER_GONE.test(activity.failure?.text ?? '');
      if (gone) died(turnAt(execution, activity.scheduled), 'activities');
      else if (activity.outcome === 'timed-out') skip(`timeout:${activity.type}`);
      if (!modelCalls.has(activity)) skip(`failed:${activity.type}`, failedAttempts(activity).count);
    }
  }
  const notCarried = [...unstated].filter(([, n]) => n > 0).map(([key, n]) => unstatedText(key, n));
  return { model, deaths, notCarried };
}

function unstatedText(key: string, n: number): string {
  const [what, type] = key.split(':') as [string, string | undefined];
  if (what === 'model') return `${plural(n, 'failed model attempt')} whose message names no status the mocks answer with`;
  if (what === 'timeout') return `${plural(n, 'timeout')} of ${type} before it started or in all (not a worker that died)`;
  return `${plural(n, 'failed attempt')} of ${type} (faults are written for the model's calls only)`;
}

/** The attempts of an activity that failed (all before the last; the last too when it failed), and the last failure's message. */
function failedAttempts(activity: Activity): { count: number; text?: string } {
  const attempt = activity.attempt ?? 1;
  if (activity.outcome === 'failed') return { count: attempt, text: activity.failure?.text ?? activity.lastFailure?.text ?? '' };
  return attempt > 1 ? { count: attempt - 1, text: activity.lastFailure?.text ?? '' } : { count: 0 };
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
