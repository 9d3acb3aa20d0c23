import { describe, expect, it } from 'vitest';
import { isLoopback, workerConnectionOptions } from './worker-connection.ts';

describe('workerConnectionOptions', () => {
  it('turns gzip off for a server on this machine', () => {
    for (const address of ['127.0.0.1:7233', '127.4.5.6:1', 'localhost:7233', 'LOCALHOST', '[::1]:7233', '::1']) {
      expect(isLoopback(address), address).toBe(true);
      expect(workerConnectionOptions(address)).toEqual({ grpcCompression: { codec: 'none' } });
    }
  });

  it("keeps the SDK's default over a network", () => {
    for (const address of [
      '10.0.0.5:7233',
      'temporal.example.com:7233',
      'my-ns.a1b2c.tmprl.cloud:7233',
      '[2001:db8::1]:7233',
      '128.0.0.1:7233',
      'localhost.example.com:7233',
    ]) {
      expect(isLoopback(address), address).toBe(false);
      expect(workerConnectionOptions(address)).toEqual({});
    }
  });
});
