import { describe, expect, it } from 'vitest';
import { isServerUnavailable, markServerGone, ServerGoneError, whileServerDown } from './server-retry.ts';

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
