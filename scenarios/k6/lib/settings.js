/**
 * What the k6 scripts read from the environment (k6 run -e NAME=value, or the container's
 * environment): where Temporal's HTTP API is, which task queue the worker polls, and the runs.
 */

/**
 * @param {string} name
 * @param {string} fallback
 */
function text(name, fallback) {
  const value = __ENV[name];
  return value === undefined || value === '' ? fallback : value;
}

/**
 * @param {string} name
 * @param {number} fallback
 */
function number(name, fallback) {
  const raw = text(name, String(fallback));
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name}=${raw}: want a positive number`);
  return value;
}

/**
 * @template T
 * @param {string} name
 * @param {T} fallback
 * @returns {T}
 */
function parsed(name, fallback) {
  const raw = __ENV[name];
  if (raw === undefined || raw === '') return fallback;
  try {
    return JSON.parse(raw);
  } catch {
    throw new Error(`${name}: not JSON: ${raw}`);
  }
}

export const settings = {
  baseUrl: text('TEMPORAL_HTTP_URL', 'http://localhost:7243'),
  namespace: text('TEMPORAL_NAMESPACE', 'default'),
  taskQueue: text('TASK_QUEUE', 'longrun-v1'),
  /** Workflow ids are <prefix>-run-<n>; a fresh prefix per test when unset (see setup()). */
  runPrefix: text('RUN_PREFIX', ''),
  maxTurns: number('MAX_TURNS', 300),
  /** The kernel's scaled-down limits (KernelLimits as JSON), as the scenario's `limits`. */
  limits: /** @type {Partial<import('../../../src/contract/kernel-api.ts').KernelLimits> | undefined} */ (parsed('RUN_LIMITS', undefined)),
  executionTimeoutSeconds: number('EXECUTION_TIMEOUT_SECONDS', 3600),
  /** Open model: runs started per second, for this long. */
  rate: number('RATE', 1),
  duration: text('DURATION', '10m'),
  preAllocatedVUs: number('PRE_ALLOCATED_VUS', 10),
  maxVUs: number('MAX_VUS', 100),
  /** Closed model: runs in flight (VUs) over time, k6 stages. */
  stages: /** @type {{ duration: string; target: number }[]} */ (
    parsed('STAGES', [
      { duration: '2m', target: 8 },
      { duration: '6m', target: 8 },
      { duration: '2m', target: 0 },
    ])
  ),
  pollSeconds: number('POLL_SECONDS', 2),
  runTimeoutSeconds: number('RUN_TIMEOUT_SECONDS', 600),
};

/** The workflow id (and longrun run id) of run n: the mocks size a run by its trailing number. */
/**
 * @param {string} prefix
 * @param {number} n
 */
export function runIdOf(prefix, n) {
  return `${prefix}-run-${String(n).padStart(6, '0')}`;
}
