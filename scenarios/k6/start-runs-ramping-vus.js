/**
 * Closed model: each virtual user starts a longrun run through Temporal's HTTP API and waits
 * for it to close before starting the next, so the VU count is the number of runs in flight;
 * the stages ramp it up and down. Runs that end in anything but COMPLETED fail the test.
 *
 *   k6 run -e TEMPORAL_HTTP_URL=http://localhost:7243 -e TASK_QUEUE=longrun-v1 \
 *     -e STAGES='[{"duration":"1m","target":4},{"duration":"5m","target":4}]' scenarios/k6/start-runs-ramping-vus.js
 */
import { check, sleep } from 'k6';
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
import { runIdOf, settings } from './lib/settings.js';
import { describeRunRequest, isClosed, readRunStatus, readStartResponse, runInput, startRunRequest } from './lib/start-run.js';

const runsCompleted = new Counter('runs_completed');
const runsFailed = new Counter('runs_failed');
const runDuration = new Trend('run_duration', true);

/** @type {import('k6/options').Options} */
export const options = {
  scenarios: {
    runs_in_flight: {
      executor: 'ramping-vus',
      startVUs: 0,
      stages: settings.stages,
      // A run in flight when its stage ends gets this long to close.
      gracefulRampDown: `${settings.runTimeoutSeconds}s`,
      gracefulStop: `${settings.runTimeoutSeconds}s`,
    },
  },
  thresholds: {
    'http_req_failed{request:start-run}': ['rate<0.01'],
    runs_failed: ['count<1'],
    runs_completed: ['count>0'],
    run_duration: [`p(95)<${settings.runTimeoutSeconds * 1000}`],
  },
};

export function setup() {
  return { prefix: settings.runPrefix || `k6-${Date.now().toString(36)}` };
}

/** @param {{ prefix: string }} data */
export default function (data) {
  const runId = runIdOf(data.prefix, exec.scenario.iterationInTest);
  const target = { baseUrl: settings.baseUrl, namespace: settings.namespace, workflowId: runId };
  const start = startRunRequest({
    ...target,
    taskQueue: settings.taskQueue,
    input: runInput({ runId, maxTurns: settings.maxTurns, ...(settings.limits ? { limits: settings.limits } : {}) }),
    executionTimeoutSeconds: settings.executionTimeoutSeconds,
  });
  const started = Date.now();
  const response = http.request(start.method, start.url, start.body ?? null, { headers: start.headers, tags: { request: 'start-run' } });
  const result = readStartResponse(response.status, typeof response.body === 'string' ? response.body : null);
  if (!check(result, { 'run started': (r) => r.started })) {
    runsFailed.add(1);
    console.error(`${runId}: ${result.error}`);
    return;
  }
  const describe = describeRunRequest(target);
  const deadline = started + settings.runTimeoutSeconds * 1000;
  /** @type {import('./lib/start-run.js').StatusResult} */
  let status = {};
  while (Date.now() < deadline) {
    sleep(settings.pollSeconds);
    const polled = http.request(describe.method, describe.url, null, { headers: describe.headers, tags: { request: 'describe-run' } });
    status = readRunStatus(polled.status, typeof polled.body === 'string' ? polled.body : null);
    if (isClosed(status.status)) break;
  }
  runDuration.add(Date.now() - started);
  if (check(status, { 'run completed': (s) => s.status === 'COMPLETED' })) runsCompleted.add(1);
  else {
    runsFailed.add(1);
    console.error(`${runId}: ${status.status ?? status.error ?? 'still running at the deadline'}`);
  }
}
