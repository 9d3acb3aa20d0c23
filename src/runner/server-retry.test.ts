import { describe, expect, it } from 'vitest';
import { ServerExitedError } from '../environment/index.ts';
import { isServerUnavailable, markServerGone, ServerGoneError, startedAgainIfServerDied, whileServerDown } from './server-retry.ts';

const unavailable = () => Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14 });

describe('whileServerDown', () => {
  it('calls again while the server is unavailable, then returns the answer', async () => {
    let calls = 0;
    const answer = await whileServerDown(async () => {
      calls++;
      if (calls < 3) throw new Error('Failed to query workflow', { cause: unavailable() });
      return 'answer';
    }, 10_000);
    expect(answer).toBe('answer');
    expect(calls).toBe(3);
  });

  it('throws any other error at once', async () => {
    let calls = 0;
    const failing = whileServerDown(async () => {
      calls++;
      throw new Error('workflow not found');
    }, 10_000);
    await expect(failing).rejects.toThrow('workflow not found');
    expect(calls).toBe(1);
  });

  it("gives up at once, with the watch's reason, once the server's process is known to be gone", async () => {
    markServerGone('the Temporal server (pid 42) exited while longrun needed it');
    try {
      let calls = 0;
      const failing = whileServerDown(() => {
        calls++;
        return Promise.reject(unavailable());
      }, 60_000);
      await expect(failing).rejects.toThrow(new ServerGoneError('the Temporal server (pid 42) exited while longrun needed it'));
      expect(calls).toBe(1);
    } finally {
      markServerGone(undefined);
    }
  });

  it('gives up once the server has been down for longer than it tolerates', async () => {
    await expect(whileServerDown(() => Promise.reject(unavailable()), 0)).rejects.toThrow('UNAVAILABLE');
  });

  it('tells unavailability by gRPC code or connection error, anywhere in the cause chain', () => {
    expect(isServerUnavailable(new Error('outer', { cause: unavailable() }))).toBe(true);
    expect(isServerUnavailable(Object.assign(new Error('deadline'), { code: 4 }))).toBe(true);
    expect(isServerUnavailable(new Error('connect ECONNREFUSED 127.0.0.1:7233'))).toBe(true);
    expect(isServerUnavailable(Object.assign(new Error('not found'), { code: 5 }))).toBe(false);
    expect(isServerUnavailable('UNAVAILABLE')).toBe(false);
  });
});

describe('startedAgainIfServerDied', () => {
  /** A start that fails with each of `failures` in turn, then gives 'harness'; and what it said. */
  function starting(...failures: Error[]) {
    const said: string[] = [];
    let calls = 0;
    const start = async () => {
      const failure = failures[calls++];
      if (failure) throw failure;
      return 'harness';
    };
    return { start, said, say: (line: string) => said.push(line), calls: () => calls };
  }
  const gone = () => new ServerGoneError('the Temporal server (pid 7) exited while longrun needed it: panic: boom');
  const exited = () => new ServerExitedError('the Temporal server (embedded) exited while longrun needed it');

  it('starts again once when its own server died, by either path, and says so in one line', async () => {
    for (const death of [gone(), exited()]) {
      const { start, said, say, calls } = starting(death);
      await expect(startedAgainIfServerDied(start, { ownServer: true, say })).resolves.toBe('harness');
      expect(calls()).toBe(2);
      expect(said).toEqual([`longrun: ${death.message}, before any run started; starting it again\n`]);
    }
  });

  it('gives up on a second death, on any other error, on a server the caller gave, and once aborted', async () => {
    const twice = starting(gone(), gone());
    await expect(startedAgainIfServerDied(twice.start, { ownServer: true, say: twice.say })).rejects.toThrow(ServerGoneError);
    expect(twice.calls()).toBe(2);
    const other = starting(new Error('the worker bundle did not build'));
    await expect(startedAgainIfServerDied(other.start, { ownServer: true, say: other.say })).rejects.toThrow('did not build');
    const theirs = starting(gone());
    await expect(startedAgainIfServerDied(theirs.start, { ownServer: false, say: theirs.say })).rejects.toThrow(ServerGoneError);
    const aborted = starting(gone());
    const signal = AbortSignal.abort();
    await expect(startedAgainIfServerDied(aborted.start, { ownServer: true, signal, say: aborted.say })).rejects.toThrow(ServerGoneError);
    for (const each of [other, theirs, aborted]) {
      expect(each.calls()).toBe(1);
      expect(each.said).toEqual([]);
    }
  });
});
