/**
 * `longrun run`, `soak` and `repro`: one scenario end to end, with progress while runs are in
 * flight, a report folder, and an exit code that says whether every expectation held. Ctrl-C or
 * SIGTERM stops the runs and still writes a (partial) report; a second one exits at once
 * (stop-on-signals.ts); during start-up, one ends it (exit 130) once what it started is gone.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import type { temporal } from '@temporalio/proto';
import { INCIDENTS } from '../../checks/index.ts';
import { queueDriver, queueDriverOptionsOf } from '../../distributed/queue-driver.ts';
import { queueJudge } from '../../distributed/queue-judge.ts';
import { DEFAULT_UI_PORT } from '../../environment/index.ts';
import { isFailingRun, renderProgress, renderText, reportDirFor, writeReport } from '../../report/index.ts';
import type { RunRecord, Summary } from '../../result/index.ts';
import { couldNotGather, MOCK_REPLICAS_WANT, mockReplicaList } from '../../runner/mock-replicas.ts';
import { couldNotReplay } from '../../runner/replay-verdict.ts';
import { runScenario } from '../../runner/run-scenario.ts';
import { durationMs, resolveScenario, type Scenario } from '../../scenario/index.ts';
import { atomicWriteFile } from '../../shared/atomic-write.ts';
import { terminalText } from '../../shared/visible-text.ts';
import { COMMAND_LINES } from '../command-lines.ts';
import { EXIT, type ExitCode, verdictExit } from '../exit-code.ts';
import { booleanFlag, defineCommand, valueFlag, wholeNumber } from '../flags.ts';
import { servePrometheus } from '../serve-metrics.ts';
import { environmentForUi, serveUiUntilStopped } from '../serve-ui.ts';
import { stopOnSignals } from '../stop-on-signals.ts';
import { UsageError } from '../usage-error.ts';

const REPORT_FLAGS = {
  json: booleanFlag('print the summary as JSON on stdout (progress stays on stderr)'),
  'report-dir': valueFlag({ value: 'DIR', help: 'where report folders go', default: 'reports' }),
  ui: booleanFlag("after the report, keep the server up with Temporal's Web UI on it, until Ctrl-C"),
  'ui-port': valueFlag({
    value: 'PORT',
    help: `the Web UI's port (default ${DEFAULT_UI_PORT}, or a free one when it is taken)`,
    parse: wholeNumber(1, 65_535),
    want: 'a port from 1 to 65535',
  }),
  'metrics-port': valueFlag({
    value: 'PORT',
    help: "while runs go on, serve Prometheus metrics (longrun's and the SDK worker's) on 127.0.0.1:PORT/metrics",
    parse: wholeNumber(1, 65_535),
    want: 'a port from 1 to 65535',
  }),
  'judge-on': valueFlag({
    value: 'Q',
    help: 'judge the runs on harness task queue Q of the cluster at TEMPORAL_ADDRESS, served by `longrun harness-worker`s, instead of in this process',
  }),
  'drive-on': valueFlag({
    value: 'Q',
    help: 'start, watch and judge the runs on harness task queue Q of the cluster at TEMPORAL_ADDRESS, served by `longrun harness-worker`s; this process keeps the mocks and the workers',
  }),
  'judge-namespace': valueFlag({
    value: 'NS',
    help: "with --judge-on or --drive-on: the harness task queue's namespace (default: the runs')",
  }),
  'mock-replicas': valueFlag({
    value: 'URL[,URL...]',
    help: "the runs' model and sandbox calls go to these `longrun mock-server` replicas (this process's workers to the first: name the nearest first), and each run's requests.accepted is gathered from all of them; default: this process's own mocks",
    parse: mockReplicaList,
    want: MOCK_REPLICAS_WANT,
  }),
};

type ReportFlags = {
  json: boolean;
  'report-dir': string;
  ui: boolean;
  'ui-port'?: number | undefined;
  'metrics-port'?: number | undefined;
  'judge-on'?: string | undefined;
  'drive-on'?: string | undefined;
  'judge-namespace'?: string | undefined;
  'mock-replicas'?: string[] | undefined;
};

function positiveDuration(raw: string): number | undefined {
  try {
    const ms = durationMs(raw);
    return ms > 0 ? ms : undefined;
  } catch {
    return undefined;
  }
}

const SOAK_FLAGS = {
  ...REPORT_FLAGS,
  duration: valueFlag({
    value: 'D',
    help: 'how long to keep starting runs: 90s, 10m, 1h',
    required: true,
    parse: positiveDuration,
    want: 'a positive duration like 90s, 10m or 1h',
  }),
};

async function runAndReport(nameOrPath: string, flags: ReportFlags, duration?: number): Promise<number> {
  if (flags['ui-port'] !== undefined && !flags.ui) throw new UsageError('--ui-port: only with --ui');
  // The harness workers judge on the runs' cluster: an embedded server of this process is none they can reach.
  const onQueue = flags['drive-on'] !== undefined ? '--drive-on' : flags['judge-on'] !== undefined ? '--judge-on' : undefined;
  if (flags['judge-namespace'] !== undefined && !onQueue) throw new UsageError('--judge-namespace: only with --judge-on or --drive-on');
  if (flags['drive-on'] !== undefined && flags['judge-on'] !== undefined)
    throw new UsageError('--judge-on: not with --drive-on, which judges on its own queue');
  if (onQueue && !process.env.TEMPORAL_ADDRESS)
    throw new UsageError(`${onQueue}: set TEMPORAL_ADDRESS, the cluster the runs run on and the harness workers serve`);
  const { scenario, file } = resolveScenario(nameOrPath);
  const metrics = flags['metrics-port'] !== undefined ? await servePrometheus(scenario.name, flags['metrics-port']) : undefined;
  const kept = flags.ui ? await environmentForUi(scenario) : undefined;
  const startedAt = new Date();
  const dir = reportDirFor(scenario.name, startedAt, flags['report-dir']);
  // Before the first progress nothing runs yet: a signal then ends the start-up, and its one line
  // comes from main (InterruptedError, exit 130) once everything started is gone.
  let running = false;
  const stop = stopOnSignals(
    (signal) =>
      running && process.stderr.write(`\nlongrun: ${signal}: stopping the runs and writing a partial report (again to quit at once)\n`),
  );
  let summary: Summary;
  try {
    process.stderr.write(`${startLine(scenario)}\n`);
    summary = await runScenario(scenario, {
      signal: stop.signal,
      scenarioFile: file,
      ...(duration !== undefined ? { durationMs: duration } : {}),
      onProgress: (progress) => {
        running = true;
        metrics?.update(progress);
        process.stderr.write(`${renderProgress(progress)}\n`);
      },
      onHistories: (record, histories) => saveFailingHistories(dir, record, histories),
      ...(kept ? { environment: kept } : {}),
      ...(flags['judge-on'] !== undefined ? { judgeElsewhere: queueJudge(flags['judge-on'], flags['judge-namespace']) } : {}),
      ...(flags['drive-on'] !== undefined
        ? { driveElsewhere: queueDriver(flags['drive-on'], flags['judge-namespace'], queueDriverOptionsOf(process.env)) }
        : {}),
      ...(flags['mock-replicas'] !== undefined ? { mockReplicas: flags['mock-replicas'] } : {}),
    });
  } catch (error) {
    stop.release();
    await kept?.teardown();
    throw error;
  } finally {
    await metrics?.close();
  }
  const stoppedWhileWriting = await stop.holdWhile(
    () => writeReport(summary, { dir }).then(() => {}),
    'writing the report first (it is written whole, then longrun stops)',
  );
  stop.release();
  if (flags.json) console.log(JSON.stringify(summary, null, 2));
  else console.log(renderText(summary, dir));
  // A replica that could not be read is named on one line: the report holds every run it left unjudged.
  const unread = unreadReplica(summary);
  if (unread) process.stderr.write(`longrun: ${unread}\n`);
  if (stoppedWhileWriting) return EXIT.interrupted;
  if (kept) await serveUiUntilStopped(kept, summary, flags['ui-port']);
  return summaryExit(summary);
}

/** The scenario's name and the first line of its description (from the file: its controls escaped). */
export function startLine(scenario: Pick<Scenario, 'name' | 'description'>): string {
  const description = scenario.description.split('\n')[0];
  return `longrun: ${terminalText(scenario.name)}${description ? `: ${terminalText(description)}` : ''}`;
}

/** The first `requests.accepted` line of a run whose mock replicas could not be read, if any. */
export function unreadReplica(summary: Pick<Summary, 'runs'>): string | undefined {
  return summary.runs.flatMap((run) => run.invariants.filter(couldNotGather)).at(0)?.evidence[0];
}

/**
 * 0 passed, 1 not; 2 when a run could not be judged whole (its replayer crashed, timed out or
 * would not start, or a mock replica its requests went to could not be read): longrun could not
 * do its job there, though the report holds everything else;
 * 130 when a signal cut the invocation short (the partial report says what was judged): an
 * interrupted run is never read as a regression.
 */
export function summaryExit(summary: Summary): ExitCode {
  if (summary.partial) return EXIT.interrupted;
  if (summary.runs.some((run) => run.invariants.some((result) => couldNotReplay(result) || couldNotGather(result)))) return EXIT.harness;
  return verdictExit(summary.passed);
}

/** The histories of a run that failed (an invariant, or its end: failed, terminated, timed out), so it can be checked and replayed. */
async function saveFailingHistories(
  dir: string,
  record: RunRecord,
  fetchHistories: () => Promise<temporal.api.history.v1.IHistory[]>,
): Promise<void> {
  if (!isFailingRun(record)) return;
  const histories = await fetchHistories();
  const runDir = join(dir, 'histories', record.workflowId);
  mkdirSync(runDir, { recursive: true });
  record.historyFiles = histories.map((_, i) => join('histories', record.workflowId, `execution-${i + 1}.json`));
  await Promise.all(
    histories.map((history, i) =>
      atomicWriteFile(join(runDir, `execution-${i + 1}.json`), historyToJSON(history as temporal.api.history.v1.History)),
    ),
  );
}

export const runCommand = defineCommand({
  ...COMMAND_LINES.run,
  flags: REPORT_FLAGS,
  positionals: { min: 1, max: 1, names: 'the scenario (a name from `longrun scenario list`, or a file)' },
  run: ({ values, positionals }) => runAndReport(positionals[0] as string, values),
});

export const soakCommand = defineCommand({
  ...COMMAND_LINES.soak,
  flags: SOAK_FLAGS,
  positionals: { min: 1, max: 1, names: 'the scenario' },
  run: ({ values, positionals }) => runAndReport(positionals[0] as string, values, values.duration),
});

export const reproCommand = defineCommand({
  ...COMMAND_LINES.repro,
  flags: REPORT_FLAGS,
  positionals: { min: 1, max: 1, names: `the incident (${INCIDENTS.join(' or ')})` },
  notes: `Incidents:\n  tmprl1103      2026-11-08 (v0, fixed in v1): a request past the 2 MiB blob limit, a PAYLOADS_TOO_LARGE retry loop\n  history-size   2026-11-09 (v0, fixed in v1): a long run's history hits the history-size limit and is terminated\n  history-count  (v1, fixed in v2): many small tool calls a turn; the history hits the event-count limit and is terminated`,
  async run({ values, positionals }) {
    const incident = positionals[0] as string;
    if (!(INCIDENTS as readonly string[]).includes(incident)) {
      throw new UsageError(`unknown incident "${incident}" (known: ${INCIDENTS.join(', ')})`);
    }
    return runAndReport(incident, values);
  },
});
