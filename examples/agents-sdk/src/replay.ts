/**
 * The replayer longrun calls with history files (as `temporal workflow show --output json`
 * writes them): exit 0 when every one replays on this worker's workflow code, else 1 with the
 * first failure as the last line of stderr.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Worker } from '@temporalio/worker';
import { agentsPlugin, bundlePath } from './plugin.ts';

async function main(files: string[]): Promise<void> {
  if (files.length === 0) throw new Error('usage: replay <history.json>...');
  const histories = files.map((file) => ({ workflowId: basename(file, '.json'), history: JSON.parse(readFileSync(file, 'utf8')) }));
  for await (const result of Worker.runReplayHistories(
    { workflowBundle: { codePath: bundlePath }, plugins: [agentsPlugin()] },
    histories,
  )) {
    if (result.error) throw new Error(`${result.workflowId}: ${result.error.message}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`agents-sdk replay: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
