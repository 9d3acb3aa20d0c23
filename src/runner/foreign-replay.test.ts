import type { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { STDERR_TAIL_LINES } from '../chaos/foreign-command.ts';
import { foreignReplayPlan, replayWithCommand } from './foreign-replay.ts';
import { couldNotReplay, replayVerdict } from './replay-verdict.ts';

const replay = { argv: ['go-kernel', 'replay'] };

describe('foreignReplayPlan', () => {
  const plan = foreignReplayPlan(
    new Map([
      ['go-v0', { replay }],
      ['go-v1', { replay }],
      ['go-ungated', { replay, breaks: 'go-v1' }],
      ['go-v2', {}],
    ]),
  );

  it('replays a release on itself and every later one that has a replayer, broken controls included', () => {
    expect(plan.targets('go-v0')).toEqual(['go-v0', 'go-v1', 'go-ungated']);
    expect(plan.targets('go-v1')).toEqual(['go-v1']);
  });

  it("replays a broken control's histories on itself only, and nothing where no binary has a replayer", () => {
    expect(plan.targets('go-ungated')).toEqual(['go-ungated']);
    expect(plan.targets('go-v2')).toEqual([]);
  });
});

describe('replayWithCommand on a replayer that crashes', () => {
  const history = {
    events: [{ eventId: 1, eventType: 1, workflowExecutionStartedEventAttributes: { workflowType: { name: 'agent' } } }],
  } as unknown as temporal.api.history.v1.IHistory;
  const aborting = {
    argv: [
      'sh',
      '-c',
      'echo "loading histories" >&2; echo "Fatal Python error: Aborted" >&2; echo "Current thread 0x7f (most recent call first):" >&2; kill -ABRT $$',
    ],
  };

  it('says what happened (its signal after its real time) and keeps the end of its stderr: the run could not be replayed', async () => {
    const outcome = await replayWithCommand('py-v1', aborting, 'wf-1', [history]);
    expect(outcome.binary).toBe('py-v1');
    expect(outcome.errors).toEqual([]);
    expect(outcome.notReplayed?.why).toMatch(/^its replayer \(`sh -c .*`\) exited with SIGABRT after \d\.\d s$/);
    expect(outcome.notReplayed?.stderr).toEqual([
      'loading histories',
      'Fatal Python error: Aborted',
      'Current thread 0x7f (most recent call first):',
    ]);
    const verdict = replayVerdict([outcome, { binary: 'py-v2', errors: [] }]);
    expect(verdict.status).toBe('fail');
    expect(verdict.evidence[0]).toMatch(/^could not be replayed on py-v1: its replayer .* exited with SIGABRT after/);
    expect(verdict.evidence.at(-1)).toBe('replayed on py-v2: identical');
    expect(couldNotReplay(verdict)).toBe(true);
  });

  it('keeps a bounded tail of a replayer that writes a lot before it dies', async () => {
    const lines = `awk 'BEGIN { s = sprintf("%300s", ""); gsub(/ /, "x", s); for (i = 1; i <= 500; i++) print "line " i " " s > "/dev/stderr" }'`;
    const chatty = { argv: ['sh', '-c', `${lines}; kill -SEGV $$`] };
    const outcome = await replayWithCommand('py-v1', chatty, 'wf-1', [history]);
    expect(outcome.notReplayed?.why).toMatch(/exited with SIGSEGV after/);
    expect(outcome.notReplayed?.stderr).toHaveLength(STDERR_TAIL_LINES);
    expect(outcome.notReplayed?.stderr.every((line) => line.length <= 240)).toBe(true);
    expect(outcome.notReplayed?.stderr.at(-1)).toMatch(/^line 500 x+\.\.\.$/);
  });

  it('a replayer that exits non-zero by itself found a nondeterminism: its last line is the error', async () => {
    const outcome = await replayWithCommand(
      'py-v1',
      { argv: ['sh', '-c', 'echo "wf-1-execution-1.json: nondeterminism at event 9" >&2; exit 1'] },
      'wf-1',
      [history],
    );
    expect(outcome).toEqual({ binary: 'py-v1', errors: ['wf-1-execution-1.json: nondeterminism at event 9'] });
    expect(couldNotReplay(replayVerdict([outcome]))).toBe(false);
  });
});
