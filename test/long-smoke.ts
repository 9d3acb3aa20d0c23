/**
 * `smoke` made long enough that it cannot end by itself while a test interrupts it: a test that
 * expects a partial report must not race two 16-turn runs that finish in seconds on a quiet
 * machine and can finish within the interrupt's own latency on a loaded one.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const LONGER: [string, string][] = [
  ['name: smoke', 'name: smoke-long'],
  ['turns: 16', 'turns: 400'],
  ['maxTurns: 50', 'maxTurns: 500'],
  ['timeout: 1m', 'timeout: 10m'],
];

/** The path of a scenario file: `smoke`'s runs at 400 turns each (minutes, not seconds). */
export function longSmokeScenario(): string {
  let text = readFileSync(fileURLToPath(new URL('../scenarios/smoke.yaml', import.meta.url)), 'utf8');
  for (const [from, to] of LONGER) {
    if (!text.includes(from)) throw new Error(`scenarios/smoke.yaml no longer has "${from}"`);
    text = text.replace(from, to);
  }
  const file = join(mkdtempSync(join(tmpdir(), 'longrun-smoke-long-')), 'smoke-long.yaml');
  writeFileSync(file, text);
  return file;
}
