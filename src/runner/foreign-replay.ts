/**
 * Cross-version replay on a foreign binary: its own replayer command (the Go kernel's
 * `go-kernel replay --binary v1`) gets a run's histories as files, as `temporal workflow show
 * --output json` writes them, and exits 0 when every one replays, or non-zero with the first
 * nondeterminism on its last line of stderr. A replayer that does not get to exit by itself (a
 * signal, its timeout, a command that will not start) could not replay the run: that is the
 * outcome, with the end of its stderr, and the judging goes on.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import type { temporal } from '@temporalio/proto';
import { describeCommand, type ForeignCommand, lastMeaningfulLine, runForeignCommand, stderrTail } from '../chaos/foreign-command.ts';
import type { BinaryName } from '../kernel/index.ts';
import type { ReplayPlan } from './replay.ts';
import type { ReplayOutcome } from './replay-verdict.ts';

/** A replay of a few executions takes seconds; one that takes minutes is stuck. */
const REPLAY_TIMEOUT_MS = 120_000;

export async function replayWithCommand(
  binary: BinaryName,
  command: ForeignCommand,
  workflowId: string,
  histories: readonly temporal.api.history.v1.IHistory[],
): Promise<ReplayOutcome> {
  if (histories.length === 0) return { binary, errors: [] };
  const dir = mkdtempSync(join(tmpdir(), 'longrun-replay-'));
  try {
    const files = histories.map((history, i) => {
      const file = join(dir, `${workflowId}-execution-${i + 1}.json`);
      writeFileSync(file, historyToJSON(history as temporal.api.history.v1.History));
      return file;
    });
    const { code, stderr, failure } = await runForeignCommand(command, files, REPLAY_TIMEOUT_MS);
    const inDir = (line: string) => line.split(`${dir}/`).join('');
    if (failure) {
      const why = `its replayer (${describeCommand(command)}) ${failure}`;
      return { binary, errors: [], notReplayed: { why, stderr: stderrTail(stderr).map(inDir) } };
    }
    if (code === 0) return { binary, errors: [] };
    const said = lastMeaningfulLine(stderr) || `exited with code ${code} and said nothing`;
    return { binary, errors: [inDir(said)] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface ForeignBinary {
  replay?: ForeignCommand;
  /** A broken control: the binary it breaks. */
  breaks?: string;
}

/**
 * A foreign target's binaries in release order (the order the scenario lists them): a run's
 * histories replay on its own binary and every later release that has a replayer; a broken
 * control stands where the release it breaks stands, and its histories replay on itself only.
 */
export function foreignReplayPlan(binaries: ReadonlyMap<BinaryName, ForeignBinary>): ReplayPlan {
  const names = [...binaries.keys()];
  const generation = (name: BinaryName) => names.indexOf(binaries.get(name)?.breaks ?? name);
  const replayable = (name: BinaryName) => binaries.get(name)?.replay !== undefined;
  return {
    targets(recordedOn) {
      if (binaries.get(recordedOn)?.breaks !== undefined) return replayable(recordedOn) ? [recordedOn] : [];
      const own = generation(recordedOn);
      return [recordedOn, ...names.filter((name) => generation(name) > own)].filter(replayable);
    },
    replay(target, workflowId, histories) {
      const command = binaries.get(target)?.replay;
      if (!command) throw new Error(`no replayer for ${target}`);
      return replayWithCommand(target, command, workflowId, histories);
    },
    control: (name) => binaries.get(name)?.breaks !== undefined,
    // Another SDK's replayer: not known to leave them unread.
    readsActivityInputs: true,
  };
}
