/**
 * Requests that start and watch longrun runs through Temporal's HTTP API, as plain data: no k6
 * and no Node imports, so that k6 scripts and longrun's tests build exactly the same requests.
 * Types: start-run.d.ts.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const STATUS_PREFIX = 'WORKFLOW_EXECUTION_STATUS_';
/** The model names the runner gives its runs; the mocks tell the roles apart by metadata anyway. */
const MODELS = { agent: { model: 'longrun-agent' }, compaction: { model: 'longrun-compactor' } };

/** @param {string} text */
function utf8Bytes(text) {
  /** @type {number[]} */
  const bytes = [];
  for (const char of text) {
    const code = /** @type {number} */ (char.codePointAt(0));
    if (code < 0x80) bytes.push(code);
    else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 63));
    else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
    else bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
  }
  return bytes;
}

/** @type {typeof import('./start-run.js').base64} */
export const base64 = (text) => {
  const bytes = utf8Bytes(text);
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b, c] = [bytes[i] ?? 0, bytes[i + 1], bytes[i + 2]];
    const triple = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out += ALPHABET.charAt(triple >> 18) + ALPHABET.charAt((triple >> 12) & 63);
    out += b === undefined ? '=' : ALPHABET.charAt((triple >> 6) & 63);
    out += c === undefined ? '=' : ALPHABET.charAt(triple & 63);
  }
  return out;
};

/** @type {typeof import('./start-run.js').encodeJsonPayload} */
export const encodeJsonPayload = (value) => ({
  metadata: { encoding: base64('json/plain') },
  data: base64(JSON.stringify(value)),
});

/** @type {typeof import('./start-run.js').runInput} */
export const runInput = (options) => ({
  runId: options.runId,
  systemPrompt: options.systemPrompt ?? 'You are longrun agent. Work through the task with the tools.',
  userRequest: options.userRequest ?? `Run ${options.runId}: carry out the task.`,
  settings: MODELS,
  maxTurns: options.maxTurns ?? 200,
  ...(options.limits ? { limits: options.limits } : {}),
});

/** @param {import('./start-run.js').Target & { workflowId: string }} target */
function workflowUrl(target) {
  const base = target.baseUrl.replace(/\/+$/, '');
  return `${base}/api/v1/namespaces/${encodeURIComponent(target.namespace ?? 'default')}/workflows/${encodeURIComponent(target.workflowId)}`;
}

/** @type {typeof import('./start-run.js').startRunRequest} */
export const startRunRequest = (options) => ({
  method: 'POST',
  url: workflowUrl(options),
  headers: { 'content-type': 'application/json' },
  // The workflow id travels in the URL only: the API fills the request's field from the path.
  body: JSON.stringify({
    workflowType: { name: options.workflowType ?? 'agentRun' },
    taskQueue: { name: options.taskQueue },
    input: { payloads: [encodeJsonPayload(options.input)] },
    identity: 'longrun k6',
    ...(options.executionTimeoutSeconds !== undefined ? { workflowExecutionTimeout: `${options.executionTimeoutSeconds}s` } : {}),
    ...(options.requestId !== undefined ? { requestId: options.requestId } : {}),
  }),
});

/** @type {typeof import('./start-run.js').describeRunRequest} */
export const describeRunRequest = (options) => ({ method: 'GET', url: workflowUrl(options), headers: { accept: 'application/json' } });

/**
 * @param {string | null | undefined} body
 * @returns {Record<string, any> | undefined}
 */
function json(body) {
  try {
    const value = JSON.parse(body ?? '');
    return value && typeof value === 'object' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * @param {number} status
 * @param {string | null | undefined} body
 */
function errorLine(status, body) {
  const message = json(body)?.message;
  return `HTTP ${status}: ${typeof message === 'string' ? message.split('\n')[0] : String(body ?? '').slice(0, 200)}`;
}

/** @type {typeof import('./start-run.js').readStartResponse} */
export const readStartResponse = (status, body) => {
  const runId = json(body)?.runId;
  if (status === 200 && typeof runId === 'string') return { started: true, runId };
  if (status === 409) return { started: false, alreadyStarted: true, error: errorLine(status, body) };
  return { started: false, error: errorLine(status, body) };
};

/** @type {typeof import('./start-run.js').readRunStatus} */
export const readRunStatus = (status, body) => {
  const raw = json(body)?.workflowExecutionInfo?.status;
  if (status !== 200 || typeof raw !== 'string' || !raw.startsWith(STATUS_PREFIX)) return { error: errorLine(status, body) };
  return { status: /** @type {import('./start-run.js').RunStatus} */ (raw.slice(STATUS_PREFIX.length)) };
};

/** @type {typeof import('./start-run.js').isClosed} */
export const isClosed = (status) => status !== undefined && status !== 'RUNNING';
