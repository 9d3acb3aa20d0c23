import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sleep } from '../../shared/sleep.ts';
import { terminalControls } from '../../shared/testing/terminal-controls.ts';
import { EXIT } from '../exit-code.ts';
import { checkCommand } from './check.ts';
import { HOSTILE, printedOver, writeHostileHistory } from './testing/hostile-history.ts';

describe('check parses its flags', () => {
  it('takes history files, the limits as whole bytes, and --json', () => {
    expect(checkCommand.parse(['a.json', 'b.json', '--blob-limit', '262144', '--trigger-bytes=1000', '--json'])).toEqual({
      values: {
        'workflow-id': undefined,
        'blob-limit': 262144,
        'trigger-bytes': 1000,
        'can-budget': undefined,
        'history-size-limit': undefined,
        json: true,
      },
      positionals: ['a.json', 'b.json'],
    });
    expect(checkCommand.parse(['--workflow-id', 'wf-1']).values['workflow-id']).toBe('wf-1');
  });

  it('refuses a limit that is not a positive whole number of bytes, and flags of other commands', () => {
    for (const bad of ['0', '-1', '1.5', '2MiB', '']) {
      expect(() => checkCommand.parse(['a.json', `--can-budget=${bad}`])).toThrow(
        `--can-budget ${bad}: want a positive whole number of bytes`,
      );
    }
    expect(() => checkCommand.parse(['a.json', '--binary', 'v1'])).toThrow('unknown option --binary');
  });

  it('wants files or a workflow id, not both and not neither', async () => {
    await expect(checkCommand.run([])).rejects.toThrow('give history files or a folder, or --workflow-id ID');
    await expect(checkCommand.run(['a.json', '--workflow-id', 'wf'])).rejects.toThrow('give history files or --workflow-id, not both');
  });
});

describe('check prints what a history holds, never its control characters', () => {
  it("shows a hostile history's workflow type and ids, and a hostile file name, with their controls escaped", async () => {
    const { code, text } = await printedOver(
      (dir) => {
        writeHostileHistory(dir);
        writeFileSync(join(dir, `broken${HOSTILE}.json`), '{');
      },
      (dir) => checkCommand.run([dir]),
    );
    expect(code).toBe(EXIT.regression);
    expect(terminalControls(text)).toEqual([]);
    expect(text).toContain('Order\\u001B]0;pwned\\u0007\\u001B[2J\\u000D\\u009B1Aall invariants PASS');
    expect(text).toContain('not judged: ');
    expect(text).toContain('broken\\u001B]0;pwned');
  });
});

describe('check on a folder with a FIFO named like a history', () => {
  it('judges the histories and names the FIFO in one line, never waits on it', async () => {
    let fifo = '';
    const judged = printedOver(
      (dir) => {
        writeHostileHistory(dir);
        fifo = join(dir, 'pipe.json');
        execFileSync('mkfifo', [fifo]);
      },
      (dir) => checkCommand.run([dir]),
    );
    const { code, text } = await Promise.race([judged, sleep(5000).then(() => ({ code: -1, text: 'still waiting' }))]);
    expect(code).toBe(EXIT.regression);
    expect(text).toContain(`not judged: ${fifo}: not a regular file (a FIFO): not read`);
  });
});
