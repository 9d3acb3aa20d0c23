import { afterEach, describe, expect, it, vi } from 'vitest';
import { harnessWorkerCommand } from './harness-worker.ts';
import { runCommand } from './run.ts';

describe('harness-worker parses its flags', () => {
  it('serves longrun-harness by default, on the address and namespace the environment names', () => {
    expect(harnessWorkerCommand.parse([])).toEqual({
      values: { address: undefined, namespace: undefined, 'task-queue': 'longrun-harness' },
      positionals: [],
    });
    expect(harnessWorkerCommand.parse(['--address', '[::1]:7233', '--namespace', 'ns', '--task-queue', 'q']).values).toEqual({
      address: '[::1]:7233',
      namespace: 'ns',
      'task-queue': 'q',
    });
  });

  it('refuses an address that is not host:port before it connects', () => {
    expect(() => harnessWorkerCommand.parse(['--address', 'http://temporal:7233'])).toThrow(
      '--address http://temporal:7233: want host:port',
    );
  });
});

describe('run --judge-on and --drive-on', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('needs the cluster the harness workers serve: without TEMPORAL_ADDRESS, one line before anything starts', async () => {
    vi.stubEnv('TEMPORAL_ADDRESS', '');
    await expect(runCommand.run(['smoke', '--judge-on', 'q'])).rejects.toThrow(
      '--judge-on: set TEMPORAL_ADDRESS, the cluster the runs run on and the harness workers serve',
    );
    await expect(runCommand.run(['smoke', '--drive-on', 'q'])).rejects.toThrow(
      '--drive-on: set TEMPORAL_ADDRESS, the cluster the runs run on and the harness workers serve',
    );
    await expect(runCommand.run(['smoke', '--judge-namespace', 'ns'])).rejects.toThrow(
      '--judge-namespace: only with --judge-on or --drive-on',
    );
  });

  it('refuses both at once: the drive judges on its own queue', async () => {
    vi.stubEnv('TEMPORAL_ADDRESS', '127.0.0.1:1');
    await expect(runCommand.run(['smoke', '--drive-on', 'q', '--judge-on', 'q'])).rejects.toThrow(
      '--judge-on: not with --drive-on, which judges on its own queue',
    );
  });
});
