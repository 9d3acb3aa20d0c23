/**
 * The few pieces of longrun's contract (contract/kernel-contract.schema.json) this worker
 * speaks: the run input, the run result, and the sandbox call. Written out here because the
 * example is its own package and imports nothing of longrun's.
 */

export interface RunInput {
  runId: string;
  systemPrompt: string;
  /** Ends with the run marker `[longrun-run:<runId>]`, which ties the model's requests to the run's plan. */
  userRequest: string;
  settings: { agent: { model: string } };
  maxTurns: number;
}

export interface RunResult {
  runId: string;
  counters: { turns: number; totalRequestBytes: number; compactions: number; compactionFailures: number; executions: number };
  finalAnswer: string | null;
  ended: 'done' | 'max-turns';
}

export type ToolContent = string | ({ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } })[];

/** The body of POST {sandboxUrl}/tools/{name}. */
export interface RunToolInput {
  runId: string;
  turn: number;
  call: { id: string; type: 'function'; function: { name: string; arguments: string } };
}

export interface RunToolResult {
  tool_call_id: string;
  content: ToolContent;
}

/** The sandbox's tools, the names the plan's calls use. */
export const TOOLS = {
  shell: 'Run a shell command in the sandbox',
  read_file: 'Read a file of the workspace',
  list_files: 'List the files under a folder',
  diff: 'Show the diff of the workspace against a base',
  screenshot: 'Take a screenshot of a page',
} as const;
