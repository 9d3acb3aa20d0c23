import { describe, expect, it } from 'vitest';
import { againstPeer } from './month-peer.ts';

describe('againstPeer', () => {
  it("is the median peer month and the median of the pairs' ratios, longrun over the peer", () => {
    const sides = [
      { side: 'longrun', pair: 0, wallSeconds: 120 },
      { side: 'peer', pair: 0, wallSeconds: 60 },
      { side: 'peer', pair: 1, wallSeconds: 80 },
      { side: 'longrun', pair: 1, wallSeconds: 120 },
      { side: 'longrun', pair: 2, wallSeconds: 100 },
      { side: 'peer', pair: 2, wallSeconds: 100 },
    ] as const;
    expect(againstPeer(sides)).toEqual({ peerWallSeconds: 80, peerRatio: 1.5 });
  });

  it('leaves a pair stopped before its second side out of the ratio, not out of the peer months', () => {
    expect(
      againstPeer([
        { side: 'longrun', pair: 0, wallSeconds: 90 },
        { side: 'peer', pair: 0, wallSeconds: 60 },
        { side: 'peer', pair: 1, wallSeconds: 70 },
      ]),
    ).toEqual({ peerWallSeconds: 65, peerRatio: 1.5 });
    expect(againstPeer([{ side: 'longrun', pair: 0, wallSeconds: 90 }]).peerRatio).toBeNaN();
  });
});
