/**
 * The Go reference kernel (examples/go-kernel) under the scenarios of its TypeScript twins that
 * test/external-target.test.ts leaves out: history-size and compaction-failure, and chaos struck
 * on the foreign worker process (kill, rolling upgrade, forced replay, a flaky network, server
 * restarts), with the twins' expectations and the chaos verdicts (nothing lost, every run ends by
 * itself), the broken Go control caught under an upgrade, and no process of a foreign worker left
 * after the run.
 * Minutes in all: a killed Go worker loses the activities it had in flight to their timeouts.
 */
import type { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import type { ChaosEvent } from '../src/chaos/chaos-session.ts';
import { aliveAfter, pidsOf, stickyTasks } from '../src/chaos/testing/chaos-runs.ts';
import { resolveScenario, runScenario } from '../src/index.ts';
import type { RunScenarioOptions } from '../src/runner/run-scenario.ts';

async function run(name: string, options: RunScenarioOptions = {}) {
  const { scenario, file } = resolveScenario(name);
  const events: ChaosEvent[] = [];
  const histories: temporal.api.history.v1.IHistory[] = [];
  const summary = await runScenario(scenario, {
    scenarioFile: file,
    onChaosEvent: (event) => {
      events.push(event);
      options.onChaosEvent?.(event);
    },
    onHistories: async (_, runHistories) => {
      histories.push(...(await runHistories()));
    },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const unmet = summary.expectations.filter((e) => !e.met).map((e) => `${e.description}: ${e.detail}`);
  return { summary, events, histories, unmet };
}

/** Processes the runner started for foreign workers (each its supervisor and its program). */
const foreignWorkerPids = (events: readonly ChaosEvent[]) =>
  pidsOf(events.filter((event) => event.type === 'process' && event.what.startsWith('foreign worker')));

const strikeDetails = (events: readonly ChaosEvent[]) => events.flatMap((event) => (event.type === 'strike' ? [event.detail] : []));

/** call_model attempts past the first: the activity failed or timed out and was retried. */
function retriedModelCalls(histories: readonly temporal.api.history.v1.IHistory[]): number {
  let retried = 0;
  for (const history of histories) {
    const modelCalls = new Set(
      (history.events ?? [])
        .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'call_model')
        .map((e) => String(e.eventId)),
    );
    for (const event of history.events ?? []) {
      const started = event.activityTaskStartedEventAttributes;
      if (started && (started.attempt ?? 1) > 1 && modelCalls.has(String(started.scheduledEventId))) retried++;
    }
  }
  return retried;
}

describe('the Go kernel under the incident scenarios', () => {
  it('go-history-size: go-v0 is terminated past limit.historySize.error, go-v1 continues as new and holds', async () => {
    const { summary, unmet } = await run('go-history-size');
    expect(unmet).toEqual([]);
    const v0 = summary.runs.filter((r) => r.binary === 'go-v0');
    expect(v0.length).toBe(2);
    expect(v0.every((r) => r.incidents.includes('history-size') && r.outcome === 'terminated')).toBe(true);
    expect(summary.runs.filter((r) => r.binary === 'go-v1').every((r) => r.executions.length > 1)).toBe(true);
  }, 300_000);

  it('go-compaction-failure: go-v1 carries on after every failed compaction, the Go compaction-fatal control stops', async () => {
    const { summary, unmet } = await run('go-compaction-failure');
    expect(unmet).toEqual([]);
    const v1 = summary.runs.filter((r) => r.binary === 'go-v1');
    expect(v1.every((r) => r.outcome === 'completed' && r.compactions.length > 1 && r.compactions.every((c) => !c.ok))).toBe(true);
    const fatal = summary.runs.filter((r) => r.binary === 'go-compaction-fatal');
    expect(fatal.every((r) => r.outcome === 'failed')).toBe(true);
  }, 300_000);
});

describe('chaos on a Go worker', () => {
  it('go-chaos-upgrade: go-v1 takes over go-v0 runs mid-run and holds; no foreign worker process is left', async () => {
    const { summary, events, unmet } = await run('go-chaos-upgrade');
    expect(unmet).toEqual([]);
    expect(summary.runs.map((r) => r.binary)).toEqual(['go-v1', 'go-v1', 'go-v1', 'go-v1']);
    const [upgrade, kill] = strikeDetails(events);
    expect(upgrade).toMatch(/^foreign worker go-v1 .* joined foreign worker go-v0 .*, which then shut down$/);
    expect(kill).toMatch(/^SIGKILL foreign worker go-v1 .*; foreign worker go-v1 .* polling \d+ ms later$/);
    // go-v0, go-v1 joining, go-v1 replacing the killed one: a supervisor and a Go program each.
    const pids = foreignWorkerPids(events);
    expect(pids.length).toBe(6);
    expect(await aliveAfter(pids)).toEqual([]);
  }, 600_000);

  it('go-chaos-upgrade-ungated: the ungated Go control taking over is caught by replay.cross-version through the Go replayer', async () => {
    const { summary, events, unmet } = await run('go-chaos-upgrade-ungated');
    expect(unmet).toEqual([]);
    const ungated = summary.runs.filter((r) => r.binary === 'go-ungated');
    expect(ungated.length).toBe(2);
    for (const record of ungated) {
      const replay = record.invariants.find((i) => i.id === 'replay.cross-version');
      expect(replay?.status).toBe('fail');
      expect(replay?.evidence.join('\n')).toMatch(/replayed on go-ungated: go-kernel replay: .* does not replay on ungated/);
    }
    expect(await aliveAfter(foreignWorkerPids(events))).toEqual([]);
  }, 300_000);

  it('go-chaos-worker-kill: the whole Go worker SIGKILLed and restarted from its command; no turn lost, nothing left', async () => {
    const { summary, events, unmet } = await run('go-chaos-worker-kill');
    expect(unmet).toEqual([]);
    const kills = strikeDetails(events).flatMap((detail) => detail.split('; SIGKILL'));
    expect(kills.length).toBeGreaterThanOrEqual(2);
    expect(summary.runs.every((r) => r.outcome === 'completed' && r.turns.length === 40)).toBe(true);
    // Each worker started (the first and one per kill) is a supervisor and a Go program.
    const pids = foreignWorkerPids(events);
    expect(pids.length).toBe(2 * (1 + kills.length));
    expect(await aliveAfter(pids)).toEqual([]);
  }, 900_000);

  it('go-chaos-forced-replay: LONGRUN_MAX_CACHED_WORKFLOWS=0 reaches the Go worker, whose tasks all replay', async () => {
    const { histories, events, unmet } = await run('go-chaos-forced-replay');
    expect(unmet).toEqual([]);
    expect(histories.length).toBeGreaterThan(4);
    expect(stickyTasks(histories)).toBe(0);
    expect(await aliveAfter(foreignWorkerPids(events))).toEqual([]);
  }, 900_000);

  it('go-chaos-network: the Go worker reaches the frontend and the model through Toxiproxy, and rides out its faults', async () => {
    const { histories, events, unmet } = await run('go-chaos-network');
    expect(unmet).toEqual([]);
    expect(strikeDetails(events).length).toBeGreaterThanOrEqual(7);
    // The model link down for 3 s: calls through the proxy failed and were retried.
    expect(retriedModelCalls(histories)).toBeGreaterThan(0);
    expect(await aliveAfter(pidsOf(events))).toEqual([]);
  }, 600_000);

  it('go-chaos-server-restart: the Go workers reconnect to a server that crashed and came back, and lose nothing', async () => {
    const { summary, events, unmet } = await run('go-chaos-server-restart');
    expect(unmet).toEqual([]);
    expect(strikeDetails(events).filter((detail) => detail.startsWith('server down for'))).toHaveLength(2);
    expect(summary.runs.every((r) => r.outcome === 'completed' && r.turns.length === 40)).toBe(true);
    expect(await aliveAfter(foreignWorkerPids(events))).toEqual([]);
  }, 600_000);

  it('an aborted chaos run on a Go worker leaves no process behind', async () => {
    const controller = new AbortController();
    const { summary, events } = await run('go-chaos-upgrade', {
      signal: controller.signal,
      onChaosEvent: (event) => event.type === 'strike' && controller.abort(),
    });
    expect(summary.partial).toBe(true);
    // go-v0 and the go-v1 that joined it, each a supervisor and a program.
    expect(foreignWorkerPids(events).length).toBeGreaterThanOrEqual(4);
    expect(await aliveAfter(pidsOf(events))).toEqual([]);
  }, 300_000);
});
