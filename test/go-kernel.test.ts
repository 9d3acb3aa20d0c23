/**
 * The reference foreign kernel (examples/go-kernel, on the Temporal Go SDK) against the real
 * server and `longrun mock-server`'s handlers over HTTP, judged by the checks through the Go
 * mapping: v1 compacts and continues as new and holds every invariant (with the same verdicts
 * as the TypeScript v1 on the same plan), v0 reproduces TMPRL1103, the Go `ungated` control's
 * code fails to replay v0's histories, `split-group` is caught by rebuild.contract and `trigger-late`
 * by compaction.trigger.
 * The limits are tmprl1103's (blob 256 KiB, trigger 150,000, tail 32 KiB), with a small
 * ContinueAsNew budget so that v1 continues as new within the run.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import type { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES_FILE, goKernelFixtures } from '../examples/go-kernel/testdata/make-fixtures.ts';
import { type MockServer, startMockServer } from '../mocks/index.ts';
import {
  checkRun,
  incidentsOf,
  type KernelMapping,
  type LoadedHistory,
  loadHistory,
  parseKernelMapping,
  type RunVerdict,
} from '../src/checks/index.ts';
import { type KernelLimits, type RunInput, WORKFLOW_TYPE } from '../src/contract/kernel-api.ts';
import { checkContractPayloads } from '../src/contract/testing/contract-payloads.ts';
import { type Environment, resolveGoKernelBinary, startEnvironment } from '../src/environment/index.ts';
import { fetchRunHistories } from '../src/runner/history-chain.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LONGRUN = join(ROOT, 'bin/longrun.js');
const MAPPING_FILE = join(ROOT, 'examples/go-kernel/mapping.json');
const BLOB = 262_144;
const LIMITS: Partial<KernelLimits> = {
  blobLimitBytes: BLOB,
  compactionTriggerBytes: 150_000,
  tailMaxBytes: 32_768,
  cardMaxBytes: 8_192,
  continueAsNewBytes: 1_500_000,
};
const GO_BINARIES = ['v0', 'v1', 'ungated', 'split-group', 'trigger-late'] as const;
type GoBinary = (typeof GO_BINARIES)[number];

const run = promisify(execFile);

interface Finished {
  histories: LoadedHistory[];
  files: string[];
}

describe("the Go kernel's own tests", () => {
  it('hold the port to what the TypeScript kernel computes now (testdata/fixtures.json is fresh)', () => {
    expect(readFileSync(FIXTURES_FILE, 'utf8'), 'run node --import tsx examples/go-kernel/testdata/make-fixtures.ts').toBe(
      goKernelFixtures(),
    );
  });

  it('pass: go test (hashes, sizes, guard, rebuild, digest, card)', async () => {
    const { stdout } = await run('go', ['test', '-count=1', '.'], {
      cwd: join(ROOT, 'examples/go-kernel'),
      env: { ...process.env, GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? 'local' },
    });
    expect(stdout).toMatch(/^ok\s/m);
  }, 400_000);
});

describe('the Go kernel on the real server', () => {
  let env: Environment;
  let mocks: MockServer;
  let goKernel: string;
  let dir: string;
  let goMapping: KernelMapping;
  const workers: ChildProcess[] = [];

  /** A worker process on its own task queue; resolves once it polls. */
  function startWorker(command: string, args: string[], ready: string): Promise<void> {
    const child = spawn(command, args, { env: { ...process.env, TEMPORAL_ADDRESS: env.address }, stdio: ['ignore', 'pipe', 'pipe'] });
    workers.push(child);
    let output = '';
    return new Promise((resolve, reject) => {
      child.stdout?.on('data', (d) => {
        output += d;
        if (output.includes(ready)) resolve();
      });
      child.stderr?.on('data', (d) => (output += d));
      child.on('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${output}`)));
    });
  }

  function input(runId: string): RunInput {
    const plan = mocks.planFor(runId);
    return {
      runId,
      systemPrompt: plan.systemPrompt,
      userRequest: plan.userRequest,
      settings: { agent: { model: 'longrun-agent' } },
      maxTurns: 60,
      limits: LIMITS,
    };
  }

  /** Every execution of the run, loaded with the mapping and written as longrun writes them. */
  async function collect(workflowId: string, firstRunId: string, mapping: KernelMapping | undefined): Promise<Finished> {
    const fetched = await fetchRunHistories(env.client, workflowId, firstRunId);
    const runDir = join(dir, workflowId);
    mkdirSync(runDir, { recursive: true });
    const files = fetched.map((execution, i) => {
      const file = join(runDir, `execution-${i + 1}.json`);
      writeFileSync(file, historyToJSON(execution.history as temporal.api.history.v1.History));
      return file;
    });
    const histories = fetched.map((execution, i) => loadHistory(execution.history, { source: files[i], mapping }));
    return { histories, files };
  }

  async function runToEnd(taskQueue: string, workflowId: string, runId: string, mapping: KernelMapping | undefined): Promise<Finished> {
    const handle = await env.client.workflow.start(WORKFLOW_TYPE, {
      taskQueue,
      workflowId,
      args: [input(runId)],
      workflowExecutionTimeout: '2m',
    });
    await handle.result().catch(() => undefined); // a failed run is judged like any other
    return collect(workflowId, handle.firstExecutionRunId, mapping);
  }

  /** v0 never ends once it loops on TMPRL1103: stopped as soon as its history shows the loop. */
  async function runUntilTmprl1103(taskQueue: string, workflowId: string, runId: string): Promise<Finished> {
    const handle = await env.client.workflow.start(WORKFLOW_TYPE, {
      taskQueue,
      workflowId,
      args: [input(runId)],
      workflowExecutionTimeout: '2m',
    });
    for (;;) {
      const history = await handle.fetchHistory();
      if (incidentsOf([loadHistory(history, { mapping: goMapping })]).includes('tmprl1103')) break;
      const closed =
        history.events?.at(-1)?.workflowExecutionTerminatedEventAttributes ??
        history.events?.at(-1)?.workflowExecutionTimedOutEventAttributes;
      if (closed) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await handle.terminate('tmprl1103 reproduced').catch(() => undefined);
    return collect(workflowId, handle.firstExecutionRunId, goMapping);
  }

  async function replay(binary: GoBinary, files: string[]): Promise<{ code: number; stderr: string }> {
    try {
      await run(goKernel, ['replay', '--binary', binary, ...files]);
      return { code: 0, stderr: '' };
    } catch (error) {
      const failed = error as { code: number; stderr: string };
      return { code: failed.code, stderr: failed.stderr };
    }
  }

  function statuses(verdict: RunVerdict): Record<string, string> {
    return Object.fromEntries(verdict.results.map((r) => [r.id, r.status]));
  }

  function activityTypes(histories: LoadedHistory[]): string[] {
    return histories.flatMap((h) => h.events.flatMap((e) => (e.attrs.kind === 'activity-scheduled' ? [e.attrs.activityType] : [])));
  }

  beforeAll(async () => {
    goKernel = (await resolveGoKernelBinary()).path;
    goMapping = parseKernelMapping(JSON.parse(readFileSync(MAPPING_FILE, 'utf8')), MAPPING_FILE);
    dir = mkdtempSync(join(tmpdir(), 'longrun-go-kernel-'));
    env = await startEnvironment({ dynamicConfig: { 'limit.blobSize.error': BLOB, 'limit.blobSize.warn': BLOB / 4 } });
    mocks = await startMockServer({ seed: 1103, shape: { screenshots: { share: 0 }, overrides: { turns: 40, bytesPerTurn: 8192 } } });
    await Promise.all([
      ...GO_BINARIES.map((binary) =>
        startWorker(goKernel, ['worker', '--binary', binary, '--task-queue', `go-${binary}`, '--mock-url', mocks.url], 'go-kernel worker:'),
      ),
      startWorker(
        process.execPath,
        [LONGRUN, 'worker', '--binary', 'v1', '--task-queue', 'ts-v1', '--mock-url', mocks.url],
        'longrun worker:',
      ),
    ]);
  }, 400_000);

  afterAll(async () => {
    for (const worker of workers) {
      worker.removeAllListeners('exit');
      if (worker.exitCode === null) {
        const exited = new Promise((resolve) => worker.once('exit', resolve));
        worker.kill('SIGTERM');
        await exited;
      }
    }
    await mocks?.close();
    await env?.teardown();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The Go v1 run, made once for the tests that read it. */
  let goV1Run: Promise<Finished> | undefined;
  const goV1 = () => (goV1Run ??= runToEnd('go-v1', 'go-v1-run-0001', 'run-0001', goMapping));

  it('v1 compacts, continues as new and holds every invariant, read through the Go mapping', async () => {
    const { histories, files } = await goV1();
    const verdict = checkRun(histories);
    expect(verdict.results.filter((r) => r.status === 'fail')).toEqual([]);
    expect(verdict.status).toBe('pass');
    expect(histories.length).toBeGreaterThan(1);
    expect(activityTypes(histories)).toContain('kernel.compact_context');
    // Every payload the Go kernel wrote is the language-neutral contract's.
    const payloads = files.map((file) => checkContractPayloads(JSON.parse(readFileSync(file, 'utf8')), file));
    expect(payloads.flatMap((p) => p.problems)).toEqual([]);
    expect(payloads.reduce((n, p) => n + p.checked, 0)).toBeGreaterThan(50);
    expect(statuses(verdict)['compaction.trigger']).toBe('pass');
    // Each compaction is sent what it displaces, the second the first card (not only not failed: judged).
    expect(statuses(verdict)['compaction.digest-coverage']).toBe('pass');

    // The same histories read as a TypeScript kernel's: its compactions have no gate (no core_patch marker).
    const asTypeScript = checkRun(files.map((file) => loadHistory(readFileSync(file, 'utf8'))));
    expect(statuses(asTypeScript)['compaction.trigger']).toBe('fail');

    const cli = await run(process.execPath, [LONGRUN, 'check', '--mapping', MAPPING_FILE, ...files]);
    expect(cli.stdout).toContain('run run-0001: PASS');
    expect(await replay('v1', files)).toEqual({ code: 0, stderr: '' });
  });

  it('gets the verdicts the TypeScript v1 gets on the same plan', async () => {
    const [go, typescript] = await Promise.all([goV1(), runToEnd('ts-v1', 'ts-v1-run-0001', 'run-0001', undefined)]);
    expect(statuses(checkRun(go.histories))).toEqual(statuses(checkRun(typescript.histories)));
    expect(typescript.histories.length).toBe(go.histories.length);
  });

  it('v0 reproduces TMPRL1103; its histories replay on v1 and not on the ungated control', async () => {
    const goV0 = await runUntilTmprl1103('go-v0', 'go-v0-run-0002', 'run-0002');
    expect(incidentsOf(goV0.histories)).toContain('tmprl1103');
    expect(activityTypes(goV0.histories)).not.toContain('kernel.compact_context');

    expect(await replay('v1', goV0.files)).toEqual({ code: 0, stderr: '' });
    const ungated = await replay('ungated', goV0.files);
    expect(ungated.code).not.toBe(0);
    expect(ungated.stderr.trim().split('\n'), ungated.stderr).toHaveLength(1);
    expect(ungated.stderr).toMatch(/does not replay on ungated: .*(nondetermin|TMPRL1100)/i);
  });

  it('catches the split-group control by rebuild.contract', async () => {
    const splitGroup = await runToEnd('go-split-group', 'go-split-group-run-0003', 'run-0003', goMapping);
    expect(activityTypes(splitGroup.histories)).toContain('kernel.compact_context');
    expect(statuses(checkRun(splitGroup.histories))['rebuild.contract']).toBe('fail');
  });

  it('catches the trigger-late control by compaction.trigger', async () => {
    const late = await runToEnd('go-trigger-late', 'go-trigger-late-run-0004', 'run-0004', goMapping);
    expect(activityTypes(late.histories)).toContain('kernel.compact_context');
    expect(statuses(checkRun(late.histories))['compaction.trigger']).toBe('fail');
  });

  it('says what is wrong with a mapping file in one line, with the usage exit code', async () => {
    const bad = join(dir, 'bad-mapping.json');
    writeFileSync(bad, JSON.stringify({ gateMarker: 'GetVersion' }));
    const { files } = await goV1();
    const failed = (await run(process.execPath, [LONGRUN, 'check', '--mapping', bad, ...files]).catch((e) => e)) as {
      code: number;
      stderr: string;
    };
    expect(failed.code).toBe(2);
    expect(failed.stderr.trim()).toMatch(new RegExp(`^longrun check: --mapping ${bad}: gateMarker: `));
    expect(failed.stderr.trim().split('\n')).toHaveLength(1);
  });
});
