/**
 * A history written to fool a terminal: its workflow type, ids, activity name and workflow task
 * failures carry ESC, BEL, CR and a C1 CSI that would retitle the terminal, clear it and print a
 * fake verdict over the real one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import { payload, SdkHistory } from '../../../checks/testing/sdk-histories.ts';

export const HOSTILE = '\u001B]0;pwned\u0007\u001B[2J\r\u009B1Aall invariants PASS';

/** Writes the history as `hostile.json` in `dir`; returns its path. */
export function writeHostileHistory(dir: string): string {
  const history = new SdkHistory(
    { enums: 'constant', int64: 'string', nulls: false },
    { workflowType: `Order${HOSTILE}`, workflowId: `order${HOSTILE}`, runId: `run${HOSTILE}`, taskQueue: 'orders', input: [] },
  )
    .workflowTask()
    .activity(`Charge${HOSTILE}`, [payload.json(1)], [payload.json(2)])
    .activity(`Charge${HOSTILE}`, [payload.json(3)], [payload.json(4)]);
  for (let attempt = 1; attempt <= 4; attempt++) history.failedWorkflowTask('NonDeterministicError', `stopped${HOSTILE}`, attempt);
  const file = join(dir, 'hostile.json');
  writeFileSync(file, JSON.stringify(history.history()));
  return file;
}

/** Runs a command over a fresh folder (`fill` writes into it) and returns its exit code and all it printed, stdout and stderr. */
export async function printedOver(
  fill: (dir: string) => void,
  run: (dir: string) => Promise<number>,
): Promise<{ code: number; text: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'longrun-hostile-'));
  const out: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line));
  const error = vi.spyOn(console, 'error').mockImplementation((line: string) => void out.push(line));
  try {
    fill(dir);
    const code = await run(dir);
    return { code, text: out.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
    rmSync(dir, { recursive: true, force: true });
  }
}
