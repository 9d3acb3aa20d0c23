/**
 * The CPU a turn of a `longrun run` that drives its runs on a harness task queue (`--drive-on`),
 * against the same run in one process, on the same embedded cluster, interleaved: the `run`
 * process with the workers and mocks it starts, and the `longrun harness-worker` that starts,
 * watches and judges the runs. CPU is /proc's utime+stime of each process and its children,
 * sampled until it exits (the last quarter second of its shutdown is not counted); the
 * harness-worker's from when it serves the queue, so that its start is not charged to the turns.
 *
 *   nice -n 10 node --import tsx bench/drive-on-cpu.ts [runs, default 8] [sittings, default 2]
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnHarnessWorker, spawnRun, stopHarnessWorkers } from '../src/distributed/testing/harness-workers.ts';
import { startEnvironment } from '../src/environment/index.ts';
import { readProcessTreeUsage } from '../src/load/process-tree-usage.ts';
import type { Summary } from '../src/result/index.ts';
import { resolveScenario } from '../src/scenario/index.ts';
import { packagePath } from '../src/shared/package-paths.ts';

const runs = Number(process.argv[2] ?? 8);
const sittings = Number(process.argv[3] ?? 2);
const SAMPLE_MS = 250;

const dir = mkdtempSync(join(tmpdir(), 'longrun-drive-cpu-'));
// smoke's runs (16 turns, compaction and ContinueAsNew within them), `runs` of them, 4 at a time.
const file = join(dir, 'smoke.yaml');
writeFileSync(
  file,
  readFileSync(packagePath('scenarios', 'smoke.yaml'), 'utf8')
    .replace(/^ {2}count: \d+$/m, `  count: ${runs}`)
    .replace(/^ {2}concurrency: \d+$/m, '  concurrency: 4'),
);

/** CPU seconds of a process and its children, sampled until it exits: the last sample taken, less what it had spent by now. */
function cpuUntilExit(pid: number, exited: Promise<unknown>): Promise<number> {
  const before = readProcessTreeUsage(pid)?.cpuSeconds ?? 0;
  let last = before;
  const timer = setInterval(() => {
    last = readProcessTreeUsage(pid)?.cpuSeconds ?? last;
  }, SAMPLE_MS);
  return exited.then(() => {
    clearInterval(timer);
    return last - before;
  });
}

function turnsIn(reportDir: string): number {
  const [report] = readdirSync(reportDir);
  const summary = JSON.parse(readFileSync(join(reportDir, report as string, 'summary.json'), 'utf8')) as Summary;
  if (!summary.passed) throw new Error(`${reportDir}: the run did not pass`);
  return summary.totals.turns;
}

const env = await startEnvironment({ ...resolveScenario('smoke').scenario.server });
try {
  for (let sitting = 1; sitting <= sittings; sitting++) {
    const load = loadavg()[0]?.toFixed(1);
    const oneDir = join(dir, `one-${sitting}`);
    const one = spawnRun(env.address, [file, '--report-dir', oneDir]);
    const oneCpu = await cpuUntilExit(one.child.pid as number, one.exited);
    const oneTurns = turnsIn(oneDir);

    const queue = `drive-cpu-${sitting}`;
    const worker = spawnHarnessWorker(env.address, queue);
    await worker.ready;
    const workerCpu = cpuUntilExit(worker.child.pid as number, worker.exited);
    const driveDir = join(dir, `drive-${sitting}`);
    const drive = spawnRun(env.address, [file, '--drive-on', queue, '--report-dir', driveDir]);
    const driveCpu = await cpuUntilExit(drive.child.pid as number, drive.exited);
    await stopHarnessWorkers([worker]);
    const harnessCpu = await workerCpu;
    const driveTurns = turnsIn(driveDir);

    const perTurn = (seconds: number, turns: number) => `${((seconds * 1000) / turns).toFixed(1)} ms`;
    console.log(`sitting ${sitting} (load ${load}):`);
    console.log(`  one process:   run ${perTurn(oneCpu, oneTurns)} a turn (${oneTurns} turns)`);
    console.log(
      `  --drive-on:    run ${perTurn(driveCpu, driveTurns)} a turn, harness-worker ${perTurn(harnessCpu, driveTurns)}, ` +
        `both ${perTurn(driveCpu + harnessCpu, driveTurns)} (${driveTurns} turns)`,
    );
  }
} finally {
  await env.teardown();
}
