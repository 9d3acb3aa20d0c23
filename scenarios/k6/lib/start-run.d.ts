/**
 * The types of start-run.js: the requests that start and watch longrun runs through Temporal's
 * HTTP API. Used by the k6 scripts (checked with checkJs) and by longrun's own tests.
 */
import type { KernelLimits, RunInput } from '../../../src/contract/kernel-api.ts';

/** A Temporal payload as the HTTP API's JSON carries it: metadata values and data in base64. */
export interface JsonPayload {
  metadata: { encoding: string };
  data: string;
}

/** An HTTP request to make as is, with k6's http.request or fetch. */
export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Target {
  /** Temporal's HTTP API, e.g. http://temporal:7243 (no trailing path). */
  baseUrl: string;
  /** Default: "default". */
  namespace?: string;
}

export interface StartRunOptions extends Target {
  workflowId: string;
  taskQueue: string;
  /** Default: "agentRun", the type every kernel binary registers. */
  workflowType?: string;
  /** The workflow's one argument. */
  input: RunInput;
  /** Workflow execution timeout, seconds (the whole ContinueAsNew chain). */
  executionTimeoutSeconds?: number;
  /** Makes a retried start idempotent. */
  requestId?: string;
}

export interface RunInputOptions {
  runId: string;
  /** Default: 200. */
  maxTurns?: number;
  limits?: Partial<KernelLimits>;
  systemPrompt?: string;
  userRequest?: string;
}

export interface StartResult {
  started: boolean;
  /** Temporal's run id of the first execution, when started. */
  runId?: string;
  /** A run with this workflow id is already open (409). */
  alreadyStarted?: boolean;
  /** What went wrong, in one line, when not started. */
  error?: string;
}

export type RunStatus = 'RUNNING' | 'COMPLETED' | 'FAILED' | 'CANCELED' | 'TERMINATED' | 'CONTINUED_AS_NEW' | 'TIMED_OUT';

export interface StatusResult {
  /** The status of the run's latest execution (a ContinueAsNew chain shows its last). */
  status?: RunStatus;
  error?: string;
}

/** Base64 of the UTF-8 bytes of a string. */
export declare const base64: (text: string) => string;
/** A JSON payload (encoding json/plain), as Temporal's SDKs write them. */
export declare const encodeJsonPayload: (value: unknown) => JsonPayload;
/** The kernel's input for a run; the mock model answers the run by its runId. */
export declare const runInput: (options: RunInputOptions) => RunInput;
/** POST /api/v1/namespaces/{namespace}/workflows/{workflowId}. */
export declare const startRunRequest: (options: StartRunOptions) => HttpRequest;
/** GET /api/v1/namespaces/{namespace}/workflows/{workflowId}: the latest execution. */
export declare const describeRunRequest: (options: Target & { workflowId: string }) => HttpRequest;
export declare const readStartResponse: (status: number, body: string | null | undefined) => StartResult;
export declare const readRunStatus: (status: number, body: string | null | undefined) => StatusResult;
/** True once the run is over (any status but RUNNING; CONTINUED_AS_NEW is never the latest). */
export declare const isClosed: (status: RunStatus | undefined) => boolean;
