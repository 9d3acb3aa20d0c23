/**
 * Open model: start longrun runs at a constant arrival rate through Temporal's HTTP API, for a
 * duration, on the task queue a `longrun worker` polls. k6 only starts the runs; judge them
 * with `longrun check --workflow-id` (or watch them in the Temporal UI).
 *
 *   k6 run -e TEMPORAL_HTTP_URL=http://localhost:7243 -e TASK_QUEUE=longrun-v1 -e RATE=2 -e DURATION=10m \
 *     scenarios/k6/start-runs-constant-rate.js
 */
import { check } from 'k6';
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import { runIdOf, settings } from './lib/settings.js';
import { readStartResponse, runInput, startRunRequest } from './lib/start-run.js';

const runsStarted = new Counter('runs_started');
const runsNotStarted = new Counter('runs_not_started');

/** @type {import('k6/options').Options} */
export const options = {
  scenarios: {
    start_runs: {
      executor: 'constant-arrival-rate',
      rate: settings.rate,
      timeUnit: '1s',
      duration: settings.duration,
      preAllocatedVUs: settings.preAllocatedVUs,
      maxVUs: settings.maxVUs,
    },
  },
  thresholds: {
    'http_req_failed{request:start-run}': ['rate<0.01'],
    'http_req_duration{request:start-run}': ['p(95)<500', 'p(99)<1000'],
    runs_not_started: ['count<1'],
    // The arrival rate was held: no iteration was dropped for want of a free VU.
    dropped_iterations: ['count<1'],
  },
};

export function setup() {
  return { prefix: settings.runPrefix || `k6-${Date.now().toString(36)}` };
}

/** @param {{ prefix: string }} data */
export default function (data) {
  const runId = runIdOf(data.prefix, exec.scenario.iterationInTest);
  const request = startRunRequest({
    baseUrl: settings.baseUrl,
    namespace: settings.namespace,
    workflowId: runId,
    taskQueue: settings.taskQueue,
    input: runInput({ runId, maxTurns: settings.maxTurns, ...(settings.limits ? { limits: settings.limits } : {}) }),
    executionTimeoutSeconds: settings.executionTimeoutSeconds,
  });
  const response = http.request(request.method, request.url, request.body ?? null, {
    headers: request.headers,
    tags: { request: 'start-run' },
  });
  const result = readStartResponse(response.status, typeof response.body === 'string' ? response.body : null);
  check(result, { 'run started': (r) => r.started });
  if (result.started) runsStarted.add(1);
  else {
    runsNotStarted.add(1);
    console.error(`${runId}: ${result.error}`);
  }
}
