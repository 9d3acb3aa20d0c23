import { describe, expect, it } from 'vitest';
import { servedBinaries } from './served-binaries.ts';
import { binaryOfIdentity, workerIdentity } from './worker-messages.ts';

const started = (identity: string) => ({ workflowTaskStartedEventAttributes: { identity } });

describe('servedBinaries', () => {
  it('lists the binaries whose workers started workflow tasks, in the order they first did, across executions', () => {
    const first = {
      events: [
        started(workerIdentity({ runs: 'workflows', binary: 'v0', bundlePath: '' }, 11)),
        { activityTaskStartedEventAttributes: {} },
      ],
    };
    const second = {
      events: [
        started('v1@longrun-worker-12'),
        started('v0@longrun-worker-11'),
        started('activities@longrun-worker-13'),
        started('4242@host'),
        started('v1@longrun-worker-14'),
      ],
    };
    expect(servedBinaries([first, second])).toEqual(['v0', 'v1']);
  });

  it('reads the binary back from a worker identity, and nothing from another', () => {
    expect(binaryOfIdentity(workerIdentity({ runs: 'workflows', binary: 'can-while-pending', bundlePath: '' }, 7))).toBe(
      'can-while-pending',
    );
    expect(binaryOfIdentity('1234@host')).toBeUndefined();
    expect(binaryOfIdentity(undefined)).toBeUndefined();
  });
});
