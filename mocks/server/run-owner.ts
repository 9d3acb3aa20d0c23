/**
 * Which replica of a mock fleet owns a run: rendezvous (highest-random-weight) hashing of the run
 * id over the peers' addresses. Every replica given the same list computes the same owner with no
 * coordination, and a peer added or removed moves only the runs it gains or held.
 */
import { hash32 } from '../synthetic/random.ts';

/** A fleet: every replica's address as the replicas reach each other (its own included), and this replica's. */
export interface Peers {
  self: string;
  all: readonly string[];
}

/** The canonical form of a peer's address (`http://host:port`); throws one line naming it when it is not one. */
export function peerUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${JSON.stringify(raw)} is not a URL (want http://host:port)`);
  }
  if (url.protocol !== 'http:' || url.username || url.password || url.pathname !== '/' || url.search || url.hash) {
    throw new Error(`${JSON.stringify(raw)} is not an http://host:port address`);
  }
  return url.origin;
}

/** The fleet in canonical form; throws one line when an address is malformed or `self` is not among them. */
export function checkPeers(peers: Peers): Peers {
  const all = [...new Set(peers.all.map((peer) => peerUrl(peer)))];
  const self = peerUrl(peers.self);
  if (!all.includes(self)) throw new Error(`peers.self ${self} is not one of peers.all (${all.join(', ')})`);
  return { self, all };
}

/** The peer that owns `runId`: the one whose hash with it weighs most (ties to the smaller address, never met in practice). */
export function runOwner(runId: string, peers: readonly string[]): string {
  let owner = peers[0];
  if (owner === undefined) throw new Error('runOwner: no peers');
  let best = hash32(owner, runId);
  for (const peer of peers.slice(1)) {
    const weight = hash32(peer, runId);
    if (weight > best || (weight === best && peer < owner)) [owner, best] = [peer, weight];
  }
  return owner;
}
