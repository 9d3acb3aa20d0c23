/**
 * `longrun replay`: replay saved histories of one run on a kernel binary's workflow code; a
 * determinism error means that binary cannot take over runs like it.
 */
import { readFileSync } from 'node:fs';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { closeReplayers, replayHistories } from '../../runner/replay.ts';
import { COMMAND_LINES } from '../command-lines.ts';
import { verdictExit } from '../exit-code.ts';
import { defineCommand } from '../flags.ts';
import { UsageError } from '../usage-error.ts';
import { binaryFlag } from './binary-flag.ts';

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

export const replayCommand = defineCommand({
  ...COMMAND_LINES.replay,
  flags: { binary: binaryFlag('the binary whose workflow code replays them') },
  positionals: { min: 1, max: Number.POSITIVE_INFINITY, names: 'history files' },
  async run({ values: { binary }, positionals }) {
    const histories = positionals.map(readHistory);
    const workflowId = histories[0]?.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowId ?? 'replayed';
    const outcome = await replayHistories(binary, workflowId, histories).finally(closeReplayers);
    if (outcome.errors.length === 0) {
      console.log(`replayed ${histories.length} execution${histories.length === 1 ? '' : 's'} on ${binary}: identical`);
    }
    for (const error of outcome.errors) console.log(`replay on ${binary} failed: ${error}`);
    return verdictExit(outcome.errors.length === 0);
  },
});
