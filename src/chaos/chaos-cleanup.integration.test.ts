/**
 * No process the runner starts outlives it: worker processes, standbys, Toxiproxy and the
 * embedded server end after an abort, after a failure, and when the runner's process gets
 * SIGTERM (which then still ends it). About half a minute on two cores.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { childPids } from '../load/index.ts';
import { runScenario } from '../runner/run-scenario.ts';
import type { ChaosEvent } from './chaos-session.ts';
import { aliveAfter, commandOf, isAlive, pidsOf, runChaos, smallScenario } from './testing/chaos-runs.ts';

const SCRIPT = fileURLToPath(new URL('./testing/run-in-child.ts', import.meta.url));
const TSX_LOADER = createRequire(import.meta.url).resolve('tsx');

/** Workers and standbys, Toxiproxy on the model link, a crash at turn 2, and a run long enough to interrupt. */
const scenario = smallScenario('chaos-test-cleanup', {
  runs: { count: 1, concurrency: 1, maxTurns: 30, timeout: '90s' },
  chaos: [
    { action: 'kill-worker', atTurn: 2 },
    { action: 'network', atTurn: 12, link: 'activities-model', fault: 'latency', latencyMs: 50, for: '1s' },
  ],
});

describe('chaos leaves no process behind', () => {
  it('after an abort in the middle of a run: a partial summary', async () => {
    const controller = new AbortController();
    const run = await runChaos(scenario, {
      signal: controller.signal,
      onChaosEvent: (event) => event.type === 'strike' && controller.abort(),
    });
    expect(run.summary.partial).toBe(true);
    expect(run.summary.runs.map((r) => r.outcome)).toEqual(['terminated']);
    // Workflows, activities, a standby, the crash's replacement standby, Toxiproxy.
    expect(run.pids.length).toBeGreaterThanOrEqual(5);
    expect(run.pids.filter(isAlive)).toEqual([]);
  });

  it('after a failure: the error, and nothing left running', async () => {
    const events: ChaosEvent[] = [];
    const failing = runScenario(scenario, {
      onChaosEvent: (event) => events.push(event),
      onHistories: () => {
        throw new Error('the histories could not be saved');
      },
    });
    await expect(failing).rejects.toThrow('the histories could not be saved');
    expect(pidsOf(events).length).toBeGreaterThanOrEqual(5);
    expect(pidsOf(events).filter(isAlive)).toEqual([]);
  });

  it('on SIGTERM: the server, workers and Toxiproxy end, and so does the process, by SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', TSX_LOADER, SCRIPT, JSON.stringify(scenario)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_, signal) => resolve(signal)));
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const events: ChaosEvent[] = [];
    await new Promise<void>((resolve, reject) => {
      let buffered = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
          const line = buffered.slice(0, at);
          buffered = buffered.slice(at + 1);
          if (line.startsWith('{')) events.push(JSON.parse(line) as ChaosEvent);
          if (events.some((event) => event.type === 'strike')) resolve();
        }
      });
      exited.then(() => reject(new Error(`the runner exited before its first strike: ${stderr}`)));
    });
    // Its children: the embedded Temporal server, the worker processes (and a standby), Toxiproxy.
    const pids = [...new Set([...childPids(child.pid as number), ...pidsOf(events)])].filter(isAlive);
    const commands = pids.map(commandOf);
    expect(commands.filter((c) => c.includes('temporal-server'))).toHaveLength(1);
    expect(commands.filter((c) => c.includes('toxiproxy'))).toHaveLength(1);
    expect(commands.filter((c) => c.includes('worker-process.ts')).length).toBeGreaterThanOrEqual(3);
    child.kill('SIGTERM');
    expect(await exited).toBe('SIGTERM');
    expect(await aliveAfter(pids)).toEqual([]);
  });
});
