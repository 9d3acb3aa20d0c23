/**
 * Histories of an agent on the OpenAI Agents SDK run through @temporalio/openai-agents, in the
 * shape its activities write (read from a real run of examples/agents-sdk, written here from
 * scratch): each model call is `invokeModelActivity` with `{ modelName, request }`, the request's
 * conversation the SDK's items (`systemInstructions`, `input`: messages, `function_call` with
 * `callId`, `function_call_result` with an `output` part), the result `{ usage, output,
 * responseId }`; each tool an activity `run_tool` with the contract's RunToolInput. `spelling:
 * 'responses'` writes the Responses API's own spelling instead (`instructions`,
 * `function_call_output`, `call_id`), as a hand-written Responses client would. Options break
 * one rule each, so that the checks are seen failing on a framework's history too.
 */
import type { RunInput } from '../../contract/kernel-api.ts';
import { loadHistory } from '../history/load.ts';
import type { LoadedHistory } from '../history/model.ts';
import { parseKernelMapping } from '../mapping-file.ts';
import { HistoryBuilder, type JsonObject } from './history-builder.ts';

/** What examples/agents-sdk/mapping.json says. */
export const AGENTS_SDK_MAPPING = parseKernelMapping(
  {
    activities: { callModel: 'invokeModelActivity', compactContext: null, runTool: 'run_tool' },
    paths: { callModelAnswer: { arg: 0, path: ['output'] } },
    patchId: null,
  },
  'agents-sdk mapping',
);

export interface AgentsSdkOptions {
  spelling?: 'agents-sdk' | 'responses';
  /** Bytes of each tool output (default 1,500). */
  toolBytes?: number;
  /** A turn (1-based) whose request leaves out the previous turn's tool result: the dialog is not append-only. */
  dropToolResultAt?: number;
  /** A turn whose request puts the previous tool result before its call: tool contiguity is broken. */
  resultBeforeCallAt?: number;
}

export class AgentsSdkHistory {
  readonly history: HistoryBuilder;
  readonly input: RunInput;
  private readonly items: JsonObject[] = [];
  private turns = 0;

  constructor(private readonly options: AgentsSdkOptions = {}) {
    this.input = {
      runId: 'agents-sdk-run-0001',
      systemPrompt: 'You are a software engineering agent. Use the tools; report what you verified.',
      userRequest: 'OPS-5141: the order page is blank after commit 1a46247d1ace. Fix it. [longrun-run:agents-sdk-run-0001]',
      settings: { agent: { model: 'longrun-agent' }, compaction: { model: 'title-model' } },
      maxTurns: 60,
    };
    this.history = new HistoryBuilder('agents-sdk-run-0001');
    this.history.started(this.input);
    this.history.workflowTask();
    this.items.push(this.message('user', this.input.userRequest));
  }

  private get sdk(): boolean {
    return (this.options.spelling ?? 'agents-sdk') === 'agents-sdk';
  }

  private message(role: 'user' | 'assistant', text: string): JsonObject {
    if (role === 'user') return { type: 'message', role, content: text };
    const part = this.sdk
      ? { type: 'output_text', text, providerData: { annotations: [] } }
      : { type: 'output_text', text, annotations: [] };
    return { id: `msg_${this.turns}`, type: 'message', role, content: [part], status: 'completed' };
  }

  private call(id: string, name: string, args: string): JsonObject {
    return this.sdk
      ? { type: 'function_call', id: `fc_${id}`, callId: id, name, status: 'completed', arguments: args }
      : { type: 'function_call', id: `fc_${id}`, call_id: id, name, status: 'completed', arguments: args };
  }

  private result(id: string, name: string, text: string): JsonObject {
    return this.sdk
      ? { type: 'function_call_result', name, callId: id, status: 'completed', output: { type: 'text', text } }
      : { type: 'function_call_output', call_id: id, output: text };
  }

  private request(input: JsonObject[]): JsonObject {
    const instructions = this.sdk ? { systemInstructions: this.input.systemPrompt } : { instructions: this.input.systemPrompt };
    return {
      modelName: 'longrun-agent',
      request: {
        ...instructions,
        input,
        modelSettings: {},
        tools: [{ type: 'function', name: 'shell', description: 'Run a shell command', parameters: { type: 'object' }, strict: false }],
        outputType: 'text',
        handoffs: [],
        tracing: false,
      },
    };
  }

  /** One model call and, unless it is the last, one tool call with its run_tool. */
  turn(final = false): this {
    this.turns++;
    const turn = this.turns;
    let input = [...this.items];
    const last = input.length - 1;
    if (turn === this.options.dropToolResultAt) input = input.slice(0, last);
    if (turn === this.options.resultBeforeCallAt)
      input = [...input.slice(0, last - 1), input[last] as JsonObject, input[last - 1] as JsonObject];
    const id = `call_${String(turn).padStart(4, '0')}`;
    const args = JSON.stringify({ command: `npm test -- --grep turn-${turn}` });
    const output = [this.message('assistant', final ? 'Done: OPS-5141 is fixed.' : `Running the tests (turn ${turn}).`)];
    if (!final) output.push(this.call(id, 'shell', args));
    this.history.activity('invokeModelActivity', this.request(input), {
      usage: { requests: 1, inputTokens: 100 * turn, outputTokens: 20, totalTokens: 100 * turn + 20 },
      output,
      responseId: `resp_${turn}`,
    });
    this.history.workflowTask();
    this.items.push(...output);
    if (final) return this;
    const text = `$ npm test -- --grep turn-${turn}\n${'ok 1 - order page renders\n'.repeat(Math.ceil((this.options.toolBytes ?? 1500) / 26))}`;
    const call = { id, type: 'function', function: { name: 'shell', arguments: args } };
    this.history.activity('run_tool', { runId: this.input.runId, turn, call }, { tool_call_id: id, content: text });
    this.history.workflowTask();
    this.items.push(this.result(id, 'shell', text));
    return this;
  }

  play(turns: number): this {
    for (let i = 0; i < turns; i++) this.turn();
    return this;
  }

  complete(): this {
    this.turn(true);
    this.history.completed({ runId: this.input.runId, finalAnswer: 'Done: OPS-5141 is fixed.', ended: 'done' });
    return this;
  }

  toJson(): { events: JsonObject[] } {
    return this.history.toJson();
  }

  loaded(): LoadedHistory {
    return loadHistory(this.toJson(), { source: 'agents-sdk.json', mapping: AGENTS_SDK_MAPPING });
  }
}
