/**
 * Writes a synthetic agent-run history of at least the given size (default 150 MB) as one JSON
 * file, event by event, for measuring the checks at production scale:
 *   node --import tsx bench/checks/big-history.ts /tmp/big.json 150
 * One execution played as the current kernel plays it at production limits (compaction at
 * 1.2 MB), with text tool outputs every turn and a screenshot every fourth turn; its ContinueAsNew
 * budget is raised so that the whole size lands in one history. Deterministic: same size, same bytes.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { sha256 } from '../../src/checks/history/messages.ts';
import { AgentRunHistory } from '../../src/checks/testing/agent-run-history.ts';

const TEXT_BYTES = 24_000;
const SCREENSHOT_BYTES = 120_000;

/** A screenshot part of about `bytes` bytes of base64, different for every seed. */
function screenshot(seed: number, bytes: number): { type: 'image_url'; image_url: { url: string } } {
  const blocks: Buffer[] = [];
  for (let size = 0, i = 0; size < (bytes * 3) / 4; size += 32, i++) blocks.push(Buffer.from(sha256(`${seed}:${i}`), 'hex'));
  return { type: 'image_url', image_url: { url: `data:image/png;base64,${Buffer.concat(blocks).toString('base64')}` } };
}

export function writeBigHistory(path: string, megabytes: number): { bytes: number; events: number; turns: number } {
  const fd = openSync(path, 'w');
  let bytes = 0;
  let events = 0;
  const write = (text: string): void => {
    bytes += writeSync(fd, text);
  };
  write('{"events":[\n');
  const run = new AgentRunHistory({
    runId: 'run-bench',
    limits: { continueAsNewBytes: 1 << 30 },
    sink: () => (event) => write(`${events++ === 0 ? '' : ',\n'}${JSON.stringify(event)}`),
  });
  while (bytes < megabytes * 1e6) {
    const turn = run.turnNumber + 1;
    const tools =
      turn % 4 === 0
        ? [TEXT_BYTES, [{ type: 'text' as const, text: `screenshot ${turn}` }, screenshot(turn, SCREENSHOT_BYTES)]]
        : [TEXT_BYTES];
    run.play(1, { tools });
  }
  run.complete();
  write('\n]}\n');
  closeSync(fd);
  return { bytes, events, turns: run.turnNumber };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [path, megabytes = '150'] = process.argv.slice(2);
  if (!path) throw new Error('usage: big-history.ts <out.json> [megabytes]');
  const started = Date.now();
  const { bytes, events, turns } = writeBigHistory(path, Number(megabytes));
  console.log(`${path}: ${bytes.toLocaleString('en-US')} bytes, ${events} events, ${turns} turns in ${Date.now() - started} ms`);
}
