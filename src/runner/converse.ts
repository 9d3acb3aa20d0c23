/**
 * A chat agent's run, held as a conversation (`target.external.conversation`): its messages sent
 * one by one, each once the last is answered, then the run ended as the scenario says. An update
 * is answered when it returns; a message by signal (or the user request given at the start) when
 * the mock model has given the message's final answer and the workflow has gone idle. A message
 * that cannot be delivered stops the conversation: the run is terminated with the reason, and the
 * outcome's `problem` says which message and why, for the run's record.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import { conversationMessage, type MockRecorder, messageEndTurns, type RunPlan } from '../../mocks/index.ts';
import { CONVERSATION_ENDED } from '../contract/conversation-end.ts';
import type { Conversation } from '../scenario/conversation.ts';
import { renderTemplate, type StartValues } from '../scenario/start-args.ts';
import { sleep } from '../shared/sleep.ts';
import type { LaunchedRun } from './launch.ts';
import { SERVER_DOWN_TOLERANCE_MS, whileServerDown } from './server-retry.ts';

export interface ConverseContext {
  client: Client;
  conversation: Conversation;
  plan: RunPlan;
  /** The run's start values (userRequest, runId...), which the message templates may name too. */
  startValues: StartValues;
  /** Whether the start handed the workflow the user request: then the first message sent is the second. */
  startCarriesRequest: boolean;
  recorder: Pick<MockRecorder, 'records' | 'onRecord'>;
  signal: AbortSignal;
}

export interface ConversationOutcome {
  messages: number;
  /** Messages answered. */
  answered: number;
  /** Why the conversation stopped short, when it did and the run was not already closed by something else. */
  problem?: string;
}

/** How often the idle check asks the server, and for how long it waits. */
const IDLE_POLL_MS = 200;
const IDLE_WAIT_MS = 30_000;

export async function converse(context: ConverseContext, run: LaunchedRun): Promise<ConversationOutcome> {
  const { client, conversation, plan, signal } = context;
  const handle = client.workflow.getHandle(run.workflowId);
  const messages = conversation.messages;
  const ends = messageEndTurns(plan.turns.length, messages);
  const send = conversation.send;
  const how = 'update' in send ? `update ${send.update}` : `signal ${send.signal}`;
  let chatLength = 0;
  let answered = 0;
  const stop = async (problem: string): Promise<ConversationOutcome> => {
    // Closed already (the watch stopped it, a history limit ended it): its own end says why.
    if (!(await isRunning(handle))) return { messages, answered };
    await whileServerDown(() => handle.terminate(`longrun stopped the conversation: ${problem}`), SERVER_DOWN_TOLERANCE_MS).catch(() => {});
    return { messages, answered, problem };
  };
  for (let index = 0; index < messages; index++) {
    if (signal.aborted) return { messages, answered };
    const number = index + 1;
    const where = `message ${number} of ${messages} (${how})`;
    try {
      if (index === 0 && context.startCarriesRequest) {
        await answeredByModel(context, run, ends[index] as number);
      } else {
        const args = renderTemplate(send.args, {
          ...context.startValues,
          message: conversationMessage(plan, index),
          messageNumber: number,
          chatLength,
        });
        if ('update' in send) {
          const result = await whileServerDown(
            () => handle.executeUpdate(send.update, { args: args as [unknown], updateId: `${run.workflowId}-message-${number}` }),
            SERVER_DOWN_TOLERANCE_MS,
          );
          chatLength += Array.isArray(result) ? result.length : 1;
        } else {
          await whileServerDown(() => handle.signal(send.signal, ...args), SERVER_DOWN_TOLERANCE_MS);
          await answeredByModel(context, run, ends[index] as number);
        }
      }
      answered++;
    } catch (error) {
      return stop(`${where}: ${firstLine(error)}`);
    }
  }
  try {
    await untilIdle(handle, signal);
    const end = conversation.end;
    if (!end) {
      await whileServerDown(() => handle.terminate(`${CONVERSATION_ENDED} (${messages} messages)`), SERVER_DOWN_TOLERANCE_MS);
    } else {
      const args = renderTemplate(end.args, { ...context.startValues, message: '', messageNumber: messages + 1, chatLength });
      if ('update' in end)
        await whileServerDown(() => handle.executeUpdate(end.update, { args: args as [unknown] }), SERVER_DOWN_TOLERANCE_MS);
      else await whileServerDown(() => handle.signal(end.signal, ...args), SERVER_DOWN_TOLERANCE_MS);
    }
  } catch (error) {
    return stop(`ending it (${conversation.end ? Object.keys(conversation.end)[0] : 'terminate'}): ${firstLine(error)}`);
  }
  return { messages, answered };
}

/**
 * Until the mock model has answered the run's turn `turn` (the message's final answer), or the
 * run has closed (then the message was not answered: an error).
 */
async function answeredByModel(context: ConverseContext, run: LaunchedRun, turn: number): Promise<void> {
  const done = () =>
    context.recorder.records().some((r) => r.target === 'agent' && r.runId === run.runId && r.status === 200 && (r.turn ?? 0) >= turn);
  if (done()) return;
  const handle = context.client.workflow.getHandle(run.workflowId);
  await new Promise<void>((resolve, reject) => {
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      unsubscribe();
      clearInterval(poll);
      context.signal.removeEventListener('abort', aborted);
      if (error) reject(error);
      else resolve();
    };
    const unsubscribe = context.recorder.onRecord(() => done() && finish());
    const aborted = () => finish(new Error('longrun was interrupted'));
    context.signal.addEventListener('abort', aborted);
    // The run may close before the answer: a history limit, the watch stopping it.
    const poll = setInterval(() => {
      void isRunning(handle).then((running) => !running && finish(new Error(`the run closed before the model answered turn ${turn}`)));
    }, 1_000);
  });
}

/** Until the run has no activity and no workflow task pending: the answer delivered and taken in. */
async function untilIdle(handle: WorkflowHandle, signal: AbortSignal): Promise<void> {
  const deadline = Date.now() + IDLE_WAIT_MS;
  for (;;) {
    const { raw, status } = await whileServerDown(() => handle.describe(), SERVER_DOWN_TOLERANCE_MS);
    if (status.name !== 'RUNNING') throw new Error(`the run closed (${status.name.toLowerCase()}) before its conversation ended`);
    const busy = (raw.pendingActivities?.length ?? 0) > 0 || raw.pendingWorkflowTask != null;
    if (!busy || signal.aborted) return;
    if (Date.now() > deadline) throw new Error(`the run was still busy ${IDLE_WAIT_MS / 1000} s after its last message was answered`);
    await sleep(IDLE_POLL_MS, signal);
  }
}

async function isRunning(handle: WorkflowHandle): Promise<boolean> {
  const description = await whileServerDown(() => handle.describe(), SERVER_DOWN_TOLERANCE_MS).catch(() => undefined);
  return description?.status.name === 'RUNNING';
}

/** The error's message and its causes' (an update's failure is in its cause), first lines, cut at 300 characters. */
function firstLine(error: unknown): string {
  const lines: string[] = [];
  for (let current: unknown = error; current !== undefined && lines.length < 4; current = (current as Error).cause) {
    const message = current instanceof Error ? current.message : String(current);
    lines.push(message.split('\n')[0] ?? message);
    if (!(current instanceof Error)) break;
  }
  return lines.join(': ').slice(0, 300);
}
