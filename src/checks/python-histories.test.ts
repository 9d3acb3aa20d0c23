/**
 * Histories recorded from real Python agents (examples/agents-sdk-py, examples/pydantic-ai-py,
 * run under longrun with the real packages): their requests read in the Python spellings and
 * judged as any agent's, and the same history with one request broken fails.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkRun, loadHistory, readKernelMappingFile } from './index.ts';

const examples = new URL('../../examples/', import.meta.url);

type Payload = { metadata?: Record<string, string>; data?: string };
type Event = { activityTaskScheduledEventAttributes?: { activityType: { name: string }; input: { payloads: Payload[] } } };

function recorded(example: string, file: string) {
  const history = JSON.parse(readFileSync(new URL(`${example}/testdata/${file}`, examples), 'utf8')) as { events: Event[] };
  const mapping = readKernelMappingFile(new URL(`${example}/mapping.json`, examples).pathname);
  return { history, mapping };
}

/** The history with the model activity's `n`th input (1-based) changed by `edit`. */
function withModelInput(history: { events: Event[] }, model: string, n: number, edit: (input: Record<string, unknown>) => void) {
  const copy = structuredClone(history);
  const scheduled = copy.events.map((e) => e.activityTaskScheduledEventAttributes).filter((a) => a?.activityType.name === model);
  const payload = scheduled[n - 1]?.input.payloads[0] as Payload;
  const input = JSON.parse(Buffer.from(payload.data as string, 'base64').toString('utf8'));
  edit(input);
  payload.data = Buffer.from(JSON.stringify(input)).toString('base64');
  return copy;
}

const rebuildOf = (history: unknown, mapping: ReturnType<typeof readKernelMappingFile>) =>
  checkRun([loadHistory(history as object, { mapping })]).results.find((r) => r.id === 'rebuild.contract');

describe('a Python OpenAI Agents SDK history (ToolsWorkflow, started with a question)', () => {
  const { history, mapping } = recorded('agents-sdk-py', 'agents-sdk-py-run-0001.json');

  it('reads system_instructions as the system message and holds every turn to the dialog as it stood', () => {
    const result = rebuildOf(history, mapping);
    expect(result?.status).toBe('pass');
    expect(result?.evidence).toContain('5 turns held to the dialog as it stood (append-only; no compaction to rebuild after)');
  });

  it("is named by longrun's run id, from the run marker its question carries, not by its workflow id", () => {
    const renamed = structuredClone(history) as unknown as { events: Record<string, Record<string, unknown>>[] };
    const started = renamed.events[0]?.workflowExecutionStartedEventAttributes as Record<string, unknown>;
    started.workflowId = 'agents-sdk-py-run-0001-agents-sdk-py-mx7zfp7s';
    expect(checkRun([loadHistory(renamed as object, { mapping })]).runId).toBe('agents-sdk-py-run-0001');
  });

  it('fails a request that rewrote an earlier answer, and one that lost a tool output the dialog had', () => {
    const rewritten = withModelInput(history, 'invoke_model_activity', 3, (input) => {
      const items = input.input as { type?: string; role?: string; content?: unknown }[];
      const answer = items.find((item) => item.role === 'assistant');
      if (!answer) throw new Error('the recorded request holds no answer to rewrite');
      answer.content = [{ type: 'output_text', text: 'Another answer.', annotations: [] }];
    });
    expect(rebuildOf(rewritten, mapping)).toMatchObject({ status: 'fail' });
    expect(rebuildOf(rewritten, mapping)?.evidence[0]).toMatch(/does not continue its conversation as it stood: message \d+ \(assistant/);
    const dropped = withModelInput(history, 'invoke_model_activity', 4, (input) => {
      const items = input.input as { type?: string }[];
      items.splice(
        items.findIndex((item) => item.type === 'function_call_output'),
        1,
      );
    });
    expect(rebuildOf(dropped, mapping)).toMatchObject({ status: 'fail' });
  });
});

describe('a Python OpenAI Agents SDK history of agents handing off and used as tools (testdata/triage_workflow.py)', () => {
  const { history, mapping } = recorded('agents-sdk-py', 'triage-run-0001.json');

  it("holds each turn to its own agent's conversation: a handoff's new instructions and an agent used as a tool are no break", () => {
    const result = rebuildOf(history, mapping);
    expect(result?.status).toBe('pass');
    // 18 model calls: three conversations begun (the triage agent's and two of the agent used as a tool), 15 continued.
    expect(result?.evidence).toContain('15 turns held to the dialog as it stood (append-only; no compaction to rebuild after)');
  });

  it("fails the triage agent's request that lost a tool output, between its tool agent's conversations", () => {
    const last = (history as { events: Event[] }).events.filter(
      (e) => e.activityTaskScheduledEventAttributes?.activityType.name === 'invoke_model_activity',
    ).length;
    const dropped = withModelInput(history, 'invoke_model_activity', last, (input) => {
      const items = input.input as { type?: string }[];
      const output = items.findIndex((item) => item.type === 'function_call_output');
      if (output < 0) throw new Error('the last request holds no tool output to drop');
      items.splice(output, 1);
    });
    expect(rebuildOf(dropped, mapping)).toMatchObject({ status: 'fail' });
  });
});

describe('a Pydantic AI history (WeatherWorkflow, its own messages)', () => {
  const { history, mapping } = recorded('pydantic-ai-py', 'pydantic-ai-py-run-0001.json');
  const model = mapping.activities.callModel;

  it("reads Pydantic AI's requests and responses as a dialog and holds every turn to it", () => {
    const result = rebuildOf(history, mapping);
    expect(result?.status).toBe('pass');
    expect(result?.evidence).toContain("6 requests read from Pydantic AI's messages into Chat messages; append-only between turns");
  });

  it('fails a request that lost a tool return the dialog had', () => {
    const dropped = withModelInput(history, model, 3, (input) => {
      const messages = input.messages as { kind: string; parts: { part_kind: string }[] }[];
      const request = [...messages].reverse().find((m) => m.kind === 'request' && m.parts.some((p) => p.part_kind === 'tool-return'));
      if (!request) throw new Error('the recorded history has no tool return to drop');
      request.parts = request.parts.filter((p) => p.part_kind !== 'tool-return');
    });
    expect(rebuildOf(dropped, mapping)).toMatchObject({ status: 'fail' });
  });
});

describe('a Python chat agent history (WeatherChatWorkflow: three user messages, each by update)', () => {
  const { history, mapping } = recorded('agents-sdk-py', 'chat-run-0000.json');

  it("holds every turn to the dialog as it stood, the user's next message after the answer included", () => {
    const result = rebuildOf(history, mapping);
    expect(result?.status).toBe('pass');
    expect(result?.evidence).toContain('8 turns held to the dialog as it stood (append-only; no compaction to rebuild after)');
  });

  it("fails a request that sent the user's next message without the answer to the last one", () => {
    // Turn 4 opens the second message: [..., answer, user]. Without the answer, it is not the dialog as it stood.
    const forgot = withModelInput(history, 'invoke_model_activity', 4, (input) => {
      const items = input.input as { role?: string }[];
      items.splice(items.length - 2, 1);
    });
    expect(rebuildOf(forgot, mapping)).toMatchObject({ status: 'fail' });
    expect(rebuildOf(forgot, mapping)?.evidence[0]).toMatch(/turn #4 .*does not continue its conversation as it stood/);
  });
});
