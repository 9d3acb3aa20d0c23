import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { replayCommand, reportReplay } from './replay.ts';

describe('replay parses its flags', () => {
  it('takes history files, --binary and --scenario', () => {
    expect(replayCommand.parse(['a.json'])).toEqual({ values: { binary: undefined, scenario: undefined }, positionals: ['a.json'] });
    expect(replayCommand.parse(['a.json', 'b.json', '--binary', 'v2'])).toEqual({
      values: { binary: 'v2', scenario: undefined },
      positionals: ['a.json', 'b.json'],
    });
    expect(replayCommand.parse(['a.json', '--scenario', 's.yaml', '--binary', 'py-v1']).values).toEqual({
      binary: 'py-v1',
      scenario: 's.yaml',
    });
  });

  it('refuses an unknown kernel binary, no files, and flags it does not use', async () => {
    await expect(replayCommand.run(['a.json', '--binary', 'v9'])).rejects.toThrow(
      /^--binary v9: want one of v0, v1, v2, .*--scenario FILE\)$/,
    );
    expect(() => replayCommand.parse([])).toThrow('missing history files');
    expect(() => replayCommand.parse(['a.json', '--json'])).toThrow('unknown option --json: this command takes --binary, --scenario');
  });
});

describe("replay on a scenario's foreign replayer", () => {
  let dir: string;
  let scenario: string;
  let history: string;
  const printed: string[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'longrun-replay-scenario-'));
    scenario = join(dir, 'py.yaml');
    // Commands run in the scenario file's folder, as the runner runs them: `./replay.sh` is found there.
    writeFileSync(join(dir, 'replay.sh'), '#!/bin/sh\necho "replaying $#" >&2\nexit 0\n', { mode: 0o755 });
    writeFileSync(
      scenario,
      [
        'name: py',
        'seed: 1',
        'target:',
        '  external:',
        '    binaries:',
        '      py-v1:',
        '        worker: { argv: [python, worker.py] }',
        '        replay: { argv: [./replay.sh] }',
        '      py-aborts:',
        '        worker: { argv: [python, worker.py] }',
        `        replay: { argv: [sh, -c, 'echo "Fatal Python error: Aborted" >&2; kill -ABRT $$'] }`,
        '      py-none:',
        '        worker: { argv: [python, worker.py] }',
        'expect:',
        '  - on: py-v1',
        '    hold: all',
      ].join('\n'),
    );
    history = join(dir, 'execution-1.json');
    writeFileSync(
      history,
      JSON.stringify({
        events: [
          {
            eventId: '1',
            eventType: 'EVENT_TYPE_WORKFLOW_EXECUTION_STARTED',
            workflowExecutionStartedEventAttributes: { workflowType: { name: 'agentRun' } },
          },
        ],
      }),
    );
    vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
  });
  afterAll(() => {
    vi.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  it('replays on its command, in its folder: exit 0 when it exits 0', async () => {
    printed.length = 0;
    expect(await replayCommand.run([history, '--scenario', scenario, '--binary', 'py-v1'])).toBe(0);
    expect(printed).toEqual(['replayed 1 execution on py-v1: identical']);
  });

  it('says what happened to a replayer that crashed, with the end of its stderr: exit 2', async () => {
    printed.length = 0;
    expect(await replayCommand.run([history, '--scenario', scenario, '--binary', 'py-aborts'])).toBe(2);
    expect(printed[0]).toMatch(/^could not be replayed on py-aborts: its replayer \(`sh -c .*`.*\) exited with SIGABRT after \d\.\d s$/);
    expect(printed.slice(1)).toEqual(['  stderr: Fatal Python error: Aborted']);
  });

  it('an unknown binary, one with no replayer, or no --binary is one line (a usage error, exit 2)', async () => {
    await expect(replayCommand.run([history, '--scenario', scenario, '--binary', 'py-v9'])).rejects.toThrow(
      `--binary py-v9: scenario ${scenario} has no binary py-v9 (its binaries: py-v1, py-aborts, py-none)`,
    );
    await expect(replayCommand.run([history, '--scenario', scenario, '--binary', 'py-none'])).rejects.toThrow(
      `--binary py-none: scenario ${scenario} gives py-none no replayer (target.external.binaries.py-none.replay); those with one: py-v1, py-aborts`,
    );
    await expect(replayCommand.run([history, '--scenario', scenario])).rejects.toThrow(
      '--scenario: give the binary whose replayer replays them',
    );
    await expect(replayCommand.run([history, '--scenario', 'smoke', '--binary', 'v1'])).rejects.toThrow(
      "--scenario smoke: its target is longrun's own kernel, not target.external",
    );
  });
});

describe('what a replay found, printed', () => {
  it("shows the controls of a replayer's error and stderr, never sends them to the terminal", () => {
    const printed: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
    try {
      reportReplay({ binary: 'py-v1', errors: [], notReplayed: { why: 'exit 1\u001B[2J', stderr: ['\u001B]0;pwned\u0007'] } }, 1);
      reportReplay({ binary: 'py-v1', errors: ['nondeterminism\rall identical'] }, 1);
    } finally {
      log.mockRestore();
    }
    expect(printed).toEqual([
      'could not be replayed on py-v1: exit 1\\u001B[2J',
      '  stderr: \\u001B]0;pwned\\u0007',
      'replay on py-v1 failed: nondeterminism\\u000Dall identical',
    ]);
  });
});
