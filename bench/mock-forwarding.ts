/**
 * The cost of run affinity in a mock fleet: two `longrun mock-server` replicas given each other
 * as --peers, sent chat requests of runs replica B owns, straight to B and then through A, each
 * section twice. Prints each replica's CPU (utime + stime) per request: what A spends passing a
 * request on is the extra hop's cost.
 *
 *   nice -n 10 node --import tsx bench/mock-forwarding.ts [requests per section, default 500]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { runOwner } from '../mocks/server/run-owner.ts';
import { CHAT_TOOLS } from '../mocks/testing/sandbox-tools.ts';
import { sampleProcess } from './proc-stat.ts';

const count = Number(process.argv[2] ?? 500);
const [urlA, urlB] = ['http://127.0.0.1:18301', 'http://127.0.0.1:18302'];
const peers = `${urlA},${urlB}`;

async function replica(self: string): Promise<ChildProcess> {
  const args = ['--import', 'tsx', 'src/cli/main.ts', 'mock-server', '--port', new URL(self).port, '--peers', peers, '--self', self];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let heard = '';
  child.stdout?.on('data', (chunk: Buffer) => (heard += chunk.toString()));
  while (!heard.includes('records:')) await once(child.stdout as NodeJS.ReadableStream, 'data');
  return child;
}

const owned = Array.from({ length: 200 }, (_, index) => `run-${index}`).filter((run) => runOwner(run, [urlA, urlB]) === urlB);

async function send(url: string, requests: number): Promise<void> {
  for (let index = 0; index < requests; index++) {
    const body = JSON.stringify({
      model: 'agent-model',
      messages: [{ role: 'user', content: 'go' }],
      tools: CHAT_TOOLS,
      metadata: { longrun_run_id: owned[index % owned.length], longrun_turn: String(1 + (index % 7)), longrun_purpose: 'agent' },
    });
    const response = await fetch(`${url}/v1/chat/completions`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    if (response.status !== 200) throw new Error(`${url}: status ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  }
}

const [a, b] = [await replica(urlA), await replica(urlB)];
try {
  await send(urlA, 100); // uncounted warm-up of both paths
  await send(urlB, 100);
  const cpu = () => [sampleProcess(a.pid as number).cpuMs, sampleProcess(b.pid as number).cpuMs] as const;
  for (const [label, url] of [
    ['straight to owner B', urlB],
    ['through A', urlA],
    ['straight to owner B', urlB],
    ['through A', urlA],
  ] as const) {
    const before = cpu();
    await send(url, count);
    const after = cpu();
    const per = (index: 0 | 1) => ((after[index] - before[index]) / count).toFixed(2);
    console.log(`${label.padEnd(20)} ${count} requests: A ${per(0)} ms CPU a request, B ${per(1)} ms`);
  }
} finally {
  a.kill();
  b.kill();
}
