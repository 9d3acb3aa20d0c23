/**
 * `longrun replay`: replay saved histories of one run on a kernel binary's workflow code, or on
 * a scenario's foreign replayer (`--scenario FILE --binary B`); a determinism error means that
 * binary cannot take over runs like it. Exit 0 identical, 1 a determinism error, 2 a replay that
 * could not be done (a usage error, a replayer that crashed or would not start).
 */
import { readFileSync } from 'node:fs';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import type { temporal } from '@temporalio/proto';
import { BINARY_IDS, CURRENT_BINARY, isBinaryId } from '../../kernel/index.ts';
import { buildTarget } from '../../runner/external-harness.ts';
import { replayWithCommand } from '../../runner/foreign-replay.ts';
import { closeReplayers, replayHistories } from '../../runner/replay.ts';
import type { ReplayOutcome } from '../../runner/replay-verdict.ts';
import { terminalText } from '../../shared/visible-text.ts';
import { COMMAND_LINES } from '../command-lines.ts';
import { EXIT, type ExitCode, verdictExit } from '../exit-code.ts';
import { defineCommand, valueFlag } from '../flags.ts';
import { UsageError } from '../usage-error.ts';
import { type ScenarioReplayer, scenarioReplayer } from './scenario-replayer.ts';

function readHistory(file: string) {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not JSON'}`);
  }
  try {
    return historyFromJSON(json);
  } catch (error) {
    throw new UsageError(`${file}: not a Temporal history (${(error as Error).message.split('\n')[0]})`);
  }
}

function workflowIdOf(histories: readonly temporal.api.history.v1.IHistory[]): string {
  return histories[0]?.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowId ?? 'replayed';
}

/** What the replay found, printed (a replayer's words escaped: they may quote the history); its exit code. */
export function reportReplay(outcome: ReplayOutcome, executions: number): ExitCode {
  const { errors, notReplayed } = outcome;
  const binary = terminalText(outcome.binary);
  if (notReplayed) {
    console.log(`could not be replayed on ${binary}: ${terminalText(notReplayed.why)}`);
    for (const line of notReplayed.stderr) console.log(`  stderr: ${terminalText(line)}`);
    return EXIT.harness;
  }
  if (errors.length === 0) console.log(`replayed ${executions} execution${executions === 1 ? '' : 's'} on ${binary}: identical`);
  for (const error of errors) console.log(`replay on ${binary} failed: ${terminalText(error)}`);
  return verdictExit(errors.length === 0);
}

/** The scenario's replayer, after the target's build (a replayer may be the built program). */
async function replayOnScenario(
  replayer: ScenarioReplayer,
  binary: string,
  workflowId: string,
  histories: temporal.api.history.v1.IHistory[],
): Promise<ReplayOutcome> {
  await buildTarget(replayer.build, replayer.scenarioFile);
  return replayWithCommand(binary, replayer.command, workflowId, histories);
}

export const replayCommand = defineCommand({
  ...COMMAND_LINES.replay,
  flags: {
    binary: valueFlag({
      value: 'B',
      help: `the binary whose workflow code replays them: one of ${BINARY_IDS.join(', ')} (default ${CURRENT_BINARY}); with --scenario, one of its target.external.binaries`,
    }),
    scenario: valueFlag({
      value: 'FILE',
      help: "replay on this scenario's foreign replayer (target.external.binaries.B.replay), in its folder, after its build, as a run's judging does",
    }),
  },
  positionals: { min: 1, max: Number.POSITIVE_INFINITY, names: 'history files' },
  async run({ values: { binary, scenario }, positionals }) {
    if (scenario !== undefined) {
      if (binary === undefined) throw new UsageError('--scenario: give the binary whose replayer replays them (--binary B)');
      // An unknown binary, or one with no replayer, is said before any file is read.
      const replayer = scenarioReplayer(scenario, binary);
      const histories = positionals.map(readHistory);
      return reportReplay(await replayOnScenario(replayer, binary, workflowIdOf(histories), histories), histories.length);
    }
    const kernelBinary = binary ?? CURRENT_BINARY;
    if (!isBinaryId(kernelBinary)) {
      throw new UsageError(`--binary ${kernelBinary}: want one of ${BINARY_IDS.join(', ')} (or a foreign binary with --scenario FILE)`);
    }
    const histories = positionals.map(readHistory);
    const outcome = await replayHistories(kernelBinary, workflowIdOf(histories), histories).finally(closeReplayers);
    return reportReplay(outcome, histories.length);
  },
});
