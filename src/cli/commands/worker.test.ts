import { afterEach, describe, expect, it, vi } from 'vitest';
import { CURRENT_BINARY } from '../../kernel/index.ts';
import { workerCommand } from './worker.ts';

afterEach(() => vi.unstubAllEnvs());

describe('worker parses its flags', () => {
  it('takes the task queue, the mock URL (trailing slashes dropped), a binary and the cache size', () => {
    expect(workerCommand.parse(['--task-queue', 'q', '--mock-url', 'http://mocks:8080/'])).toEqual({
      values: {
        'task-queue': 'q',
        'mock-url': 'http://mocks:8080',
        binary: CURRENT_BINARY,
        'max-cached-workflows': undefined,
        store: undefined,
      },
      positionals: [],
    });
    expect(
      workerCommand.parse(['--task-queue', 'q', '--mock-url', 'http://m:1', '--binary', 'v0', '--max-cached-workflows', '0']).values,
    ).toMatchObject({
      binary: 'v0',
      'max-cached-workflows': 0,
    });
  });

  it('requires the task queue and the mock URL, and checks each value', () => {
    expect(() => workerCommand.parse(['--mock-url', 'http://m:1'])).toThrow('--task-queue is required');
    expect(() => workerCommand.parse(['--task-queue', 'q', '--mock-url', 'ftp://m'])).toThrow('--mock-url ftp://m: want http://host:port');
    expect(() => workerCommand.parse(['--task-queue', 'q', '--mock-url', 'http://m:1', '--max-cached-workflows=-1'])).toThrow(
      '--max-cached-workflows -1: want a whole number >= 0',
    );
  });

  it('takes an offloading binary with its store, and refuses one without it before it connects', async () => {
    const flags = ['--task-queue', 'q', '--mock-url', 'http://m:1', '--binary', 'v1-offload'];
    expect(workerCommand.parse([...flags, '--store', 'http://127.0.0.1:9000/longrun']).values.store).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'longrun',
    });
    expect(() => workerCommand.parse([...flags, '--store', 'http://127.0.0.1:9000'])).toThrow(
      '--store http://127.0.0.1:9000: want http://host:port/bucket',
    );
    await expect(workerCommand.run(flags)).rejects.toThrow(
      '--binary v1-offload offloads to External Storage: give --store http://host:port/bucket',
    );
  });

  it("takes its mock server from LONGRUN_MOCK_URL when no flag names one: the host's nearest replica", async () => {
    vi.stubEnv('TEMPORAL_ADDRESS', '');
    vi.stubEnv('LONGRUN_MOCK_URL', '');
    await expect(workerCommand.run(['--task-queue', 'q'])).rejects.toThrow('--mock-url is required, or LONGRUN_MOCK_URL: ');
    vi.stubEnv('LONGRUN_MOCK_URL', 'mocks:8700');
    await expect(workerCommand.run(['--task-queue', 'q'])).rejects.toThrow('LONGRUN_MOCK_URL mocks:8700: want http://host:port');
    // Taken: the worker goes on to the cluster, which is not set.
    vi.stubEnv('LONGRUN_MOCK_URL', 'http://10.0.0.7:8700/');
    await expect(workerCommand.run(['--task-queue', 'q'])).rejects.toThrow('TEMPORAL_ADDRESS is not set');
  });
});
