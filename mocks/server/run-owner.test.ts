import { describe, expect, it } from 'vitest';
import { checkPeers, peerUrl, runOwner } from './run-owner.ts';

const FLEET = ['http://10.0.0.1:8080', 'http://10.0.0.2:8080', 'http://10.0.0.3:8080'];
const RUNS = Array.from({ length: 3000 }, (_, index) => `run-${String(index).padStart(4, '0')}`);

function owners(peers: readonly string[]): Map<string, string> {
  return new Map(RUNS.map((run) => [run, runOwner(run, peers)]));
}

describe('runOwner', () => {
  it('gives a run the same owner whatever the order of the list', () => {
    const reversed = owners([...FLEET].reverse());
    expect(owners(FLEET)).toEqual(reversed);
    expect(runOwner('run-0001', FLEET)).toBe(runOwner('run-0001', FLEET));
  });

  it('spreads runs evenly: each of three peers owns between 30% and 37% of 3000 runs', () => {
    const counts = new Map<string, number>();
    for (const owner of owners(FLEET).values()) counts.set(owner, (counts.get(owner) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual(FLEET);
    for (const count of counts.values()) expect(count / RUNS.length).toBeGreaterThan(0.3);
    for (const count of counts.values()) expect(count / RUNS.length).toBeLessThan(0.37);
  });

  it('moves only the runs of a peer removed, and only runs to a peer added', () => {
    const before = owners(FLEET);
    const removed = FLEET[1] as string;
    const after = owners(FLEET.filter((peer) => peer !== removed));
    const moved = RUNS.filter((run) => before.get(run) !== after.get(run));
    expect(moved.length).toBeGreaterThan(0);
    expect(moved.every((run) => before.get(run) === removed)).toBe(true);
    expect(moved.length).toBe(RUNS.filter((run) => before.get(run) === removed).length);

    const added = 'http://10.0.0.4:8080';
    const grown = owners([...FLEET, added]);
    const gained = RUNS.filter((run) => before.get(run) !== grown.get(run));
    expect(gained.length).toBeGreaterThan(0);
    expect(gained.every((run) => grown.get(run) === added)).toBe(true);
  });
});

describe('checkPeers', () => {
  it('takes addresses in canonical form, refuses a malformed one, and a self that is not listed', () => {
    expect(peerUrl('http://Mock-0.mocks:8080/')).toBe('http://mock-0.mocks:8080');
    expect(checkPeers({ self: 'http://a:1/', all: ['http://a:1', 'http://b:1', 'http://a:1'] })).toEqual({
      self: 'http://a:1',
      all: ['http://a:1', 'http://b:1'],
    });
    expect(() => peerUrl('a:1:x')).toThrow('"a:1:x" is not an http://host:port address');
    expect(() => peerUrl('nothing')).toThrow('"nothing" is not a URL');
    expect(() => peerUrl('http://a:1/v1')).toThrow('is not an http://host:port address');
    expect(() => checkPeers({ self: 'http://c:1', all: ['http://a:1', 'http://b:1'] })).toThrow(
      'peers.self http://c:1 is not one of peers.all (http://a:1, http://b:1)',
    );
  });
});
