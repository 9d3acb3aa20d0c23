import { describe, expect, it } from 'vitest';
import { CURRENT_BINARY } from '../../kernel/index.ts';
import { workerCommand } from './worker.ts';

describe('worker parses its flags', () => {
  it('takes the task queue, the mock URL (trailing slashes dropped), a binary and the cache size', () => {
    expect(workerCommand.parse(['--task-queue', 'q', '--mock-url', 'http://mocks:8080/'])).toEqual({
      values: { 'task-queue': 'q', 'mock-url': 'http://mocks:8080', binary: CURRENT_BINARY, 'max-cached-workflows': undefined },
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
    expect(() => workerCommand.parse(['--task-queue', 'q'])).toThrow('--mock-url is required');
    expect(() => workerCommand.parse(['--task-queue', 'q', '--mock-url', 'ftp://m'])).toThrow('--mock-url ftp://m: want http://host:port');
    expect(() => workerCommand.parse(['--task-queue', 'q', '--mock-url', 'http://m:1', '--max-cached-workflows=-1'])).toThrow(
      '--max-cached-workflows -1: want a whole number >= 0',
    );
  });
});
