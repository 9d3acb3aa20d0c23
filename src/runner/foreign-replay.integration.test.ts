/**
 * A foreign binary's replayer judges cross-version replay: Go v0 histories that crossed the
 * compaction trigger replay on Go v1 through `go-kernel replay`, and not on the ungated control.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../mocks/index.ts';
import { ForeignWorker } from '../chaos/foreign-worker.ts';
import { type RunInput, WORKFLOW_TYPE } from '../contract/kernel-api.ts';
import { type Environment, resolveGoKernelBinary, startEnvironment } from '../environment/index.ts';
import { replayWithCommand } from './foreign-replay.ts';
import { fetchRunHistories } from './history-chain.ts';

let env: Environment;
let mocks: MockServer;
let goKernel: string;
let worker: ForeignWorker | undefined;

beforeAll(async () => {
  [env, mocks, goKernel] = await Promise.all([
    startEnvironment({ dynamicConfig: { 'limit.blobSize.error': 262_144, 'limit.blobSize.warn': 65_536 } }),
    // 24 turns of 8 KiB: past the 150 kB trigger, under the 256 KiB blob limit (as cross-version-replay).
    startMockServer({ seed: 3, shape: { screenshots: { share: 0 }, overrides: { turns: 24, bytesPerTurn: 8192 } } }),
    resolveGoKernelBinary().then((binary) => binary.path),
  ]);
}, 400_000);

afterAll(async () => {
  await worker?.stop();
  await mocks?.close();
  await env?.teardown();
});

async function goV0Histories() {
  worker = await ForeignWorker.start({
    name: 'go-v0',
    command: { argv: [goKernel, 'worker', '--binary', 'v0'] },
    client: env.client,
    address: env.address,
    namespace: env.namespace,
    taskQueue: 'replay-go-v0',
    mockUrl: mocks.url,
  });
  const plan = mocks.planFor('run-0001');
  const input: RunInput = {
    runId: 'run-0001',
    systemPrompt: plan.systemPrompt,
    userRequest: plan.userRequest,
    settings: { agent: { model: 'longrun-agent' } },
    maxTurns: 40,
    limits: { blobLimitBytes: 262_144, compactionTriggerBytes: 150_000, tailMaxBytes: 32_768, cardMaxBytes: 8_192 },
  };
  const handle = await env.client.workflow.start(WORKFLOW_TYPE, {
    taskQueue: 'replay-go-v0',
    workflowId: 'go-v0-replayed',
    args: [input],
    workflowExecutionTimeout: '2m',
  });
  await handle.result();
  return (await fetchRunHistories(env.client, 'go-v0-replayed', handle.firstExecutionRunId)).map((f) => f.history);
}

describe('replay on a foreign binary', () => {
  it('passes where the replayer exits 0 and fails with its own line where it does not; a replayer that cannot run could not replay', async () => {
    const histories = await goV0Histories();
    const replay = (binary: string) =>
      replayWithCommand(`go-${binary}`, { argv: [goKernel, 'replay', '--binary', binary] }, 'go-v0-replayed', histories);

    expect(await replay('v1')).toEqual({ binary: 'go-v1', errors: [] });
    const ungated = await replay('ungated');
    expect(ungated.binary).toBe('go-ungated');
    expect(ungated.errors).toEqual([
      expect.stringMatching(/^go-kernel replay: go-v0-replayed-execution-1\.json does not replay on ungated: .*(nondetermin|TMPRL1100)/i),
    ]);

    expect(await replayWithCommand('go-v1', { argv: ['no-such-replayer'] }, 'go-v0-replayed', histories)).toEqual({
      binary: 'go-v1',
      errors: [],
      notReplayed: { why: 'its replayer (`no-such-replayer`) could not start: ENOENT', stderr: [] },
    });
  });
});
