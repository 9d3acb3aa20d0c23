/**
 * The figures docs/sizing.md rests on, measured in one sitting: the CPU of each server service
 * (`server.topology: services`) and of longrun's own process over a scenario's runs, the CPU of
 * judging those runs again one at a time, and the CPU of a `longrun mock-server` process per
 * request it answers. CPU is /proc's utime+stime (all threads); small enough for a loaded machine.
 *
 *   nice -n 10 node --import tsx bench/sizing.ts [runs, default 4] [mock runs, default 4] [mock shape scale]
 *
 * The mock server answers nightly-soak's runs, at its shape's scale (0.05) or the one given
 * (1: production's size curve). 0 runs skips the server's part.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMockProvider } from '../mocks/index.ts';
import { driveRun } from '../mocks/testing/index.ts';
import { startEnvironment } from '../src/environment/index.ts';
import { SERVICES } from '../src/environment/service-cluster.ts';
import type { BinaryId } from '../src/kernel/index.ts';
import { parseProcStat } from '../src/load/index.ts';
import { judgeRun } from '../src/runner/judge.ts';
import { checkContextOf, resolveLimits } from '../src/runner/limits.ts';
import { holdReplayers, kernelReplayPlan } from '../src/runner/replay.ts';
import { runScenario } from '../src/runner/run-scenario.ts';
import { mockOptionsOf, resolveScenario, type Scenario } from '../src/scenario/index.ts';
import { packagePath } from '../src/shared/package-paths.ts';
import { launchedOf } from './launched-run.ts';

const runs = Number(process.argv[2] ?? 4);
const mockRuns = Number(process.argv[3] ?? 4);
const mockScale = process.argv[4];
const cpuMsOf = (pid: number) => parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8')).cpuSeconds * 1000;
const load = () =>
  loadavg()
    .slice(0, 1)
    .map((l) => l.toFixed(1))
    .join('');

// 1. The server's services and longrun's process over the runs; then judging alone.
const base = resolveScenario('services-smoke').scenario;
const scenario: Scenario = { ...base, runs: { ...base.runs, count: runs } };
const inPlay = (scenario.target as { binaries: BinaryId[] }).binaries;
if (runs > 0) await measureServer();

async function measureServer() {
  const env = await startEnvironment({ ...scenario.server });
  const release = holdReplayers();
  try {
    const services = env.services;
    if (!services) throw new Error('services-smoke did not start the services as processes');
    const pids = SERVICES.map((name) => [name, services.pid(name) ?? 0] as const);
    const loadBefore = load();
    const before = pids.map(([, pid]) => cpuMsOf(pid));
    const ownBefore = cpuMsOf(process.pid);
    const summary = await runScenario(scenario, { environment: env });
    const own = cpuMsOf(process.pid) - ownBefore;
    const served = pids.map(([name, pid], i) => [name, cpuMsOf(pid) - (before[i] ?? 0)] as const);
    const turns = summary.totals.turns;
    const serverMs = served.reduce((n, [, ms]) => n + ms, 0);
    console.log(`${scenario.name}: ${summary.runs.length} runs, ${turns} turns, load ${loadBefore} → ${load()}`);
    for (const [name, ms] of served)
      console.log(`  ${name.padEnd(9)} ${(ms / turns).toFixed(2)} ms CPU a turn (${((100 * ms) / serverMs).toFixed(0)}% of the server)`);
    console.log(`  server    ${(serverMs / turns).toFixed(2)} ms CPU a turn`);
    console.log(`  longrun   ${(own / turns).toFixed(2)} ms CPU a turn (mocks, kernel workers, judging)`);

    const context = {
      client: env.client,
      checkContext: checkContextOf(scenario, resolveLimits(scenario, env.dynamicConfig)),
      replays: kernelReplayPlan(inPlay),
      servedBy: (b: string) => [b],
      refusals: { verdict: () => ({ id: 'requests.accepted' as const, status: 'pass' as const, evidence: [] }) },
    };
    const judgeBefore = cpuMsOf(process.pid);
    for (const record of summary.runs) {
      await judgeRun(context, launchedOf(record), undefined);
    }
    console.log(`  judging   ${((cpuMsOf(process.pid) - judgeBefore) / turns).toFixed(2)} ms CPU a turn, one run at a time, again`);
  } finally {
    await release();
    await env.teardown();
  }
}

// 2. A `longrun mock-server` process: its CPU per request, driven from here over HTTP.
const mockScenario = mockScale === undefined ? 'nightly-soak' : nightlySoakAtScale(Number(mockScale));
const child: ChildProcess = spawn(process.execPath, [packagePath('bin', 'longrun.js'), 'mock-server', '--scenario', mockScenario], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
try {
  const [modelBaseUrl, sandboxBaseUrl] = await new Promise<[string, string]>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (data: Buffer) => {
      out += data;
      const model = /model API:\s+(\S+)\/chat\/completions/.exec(out)?.[1];
      const sandbox = /sandbox API:\s+(\S+)\/tools\//.exec(out)?.[1];
      if (model && sandbox) resolve([model, sandbox]);
    });
    child.on('close', (code) => reject(new Error(`mock-server exited ${code}: ${out}`)));
  });
  const provider = createMockProvider(mockOptionsOf(resolveScenario(mockScenario).scenario));
  const pid = child.pid ?? 0;
  const drive = async (from: number, count: number) => {
    let requests = 0;
    let bytes = 0;
    let turns = 0;
    for (let i = from; i < from + count; i++) {
      const runId = `sizing-${String(i).padStart(4, '0')}`;
      const plan = provider.planFor(runId);
      const driven = await driveRun({
        modelBaseUrl,
        sandboxBaseUrl,
        runId,
        systemPrompt: plan.systemPrompt,
        userRequest: plan.userRequest,
      });
      requests += driven.exchanges.length;
      turns += driven.turns;
      bytes += driven.exchanges.reduce((n, e) => n + e.request.length + e.response.length, 0);
    }
    return { requests, bytes, turns };
  };
  await drive(0, 1); // warm-up, uncounted
  const loadBefore = load();
  const before = cpuMsOf(pid);
  const { requests, bytes, turns } = await drive(1, mockRuns);
  const ms = cpuMsOf(pid) - before;
  console.log(
    `mock-server (${mockScenario}): ${requests} requests of ${mockRuns} runs, ${(bytes / requests / 1024).toFixed(1)} KiB a request and its answer, load ${loadBefore} → ${load()}`,
  );
  console.log(
    `  ${(ms / requests).toFixed(2)} ms CPU a request, ${(ms / turns).toFixed(2)} a turn (${turns} turns: the model's request and its tool calls)`,
  );
} finally {
  child.kill('SIGTERM');
}

/** nightly-soak as a file with its shape at another scale, for the mock server to read. */
function nightlySoakAtScale(scale: number): string {
  const text = readFileSync(resolveScenario('nightly-soak').file, 'utf8');
  const path = join(mkdtempSync(join(tmpdir(), 'longrun-sizing-')), 'nightly-soak.yaml');
  writeFileSync(path, text.replace(/^ {2}scale: [\d.]+$/m, `  scale: ${scale}`));
  return path;
}
