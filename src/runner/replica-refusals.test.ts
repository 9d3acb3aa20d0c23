import { afterEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../mocks/index.ts';
import { CHAT_TOOLS } from '../../mocks/testing/sandbox-tools.ts';
import { BINARY_HEADER } from '../contract/run-marker.ts';
import { gatherReplicasVerdict, replicaRecords } from './replica-refusals.ts';

let servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function replicas(): Promise<[MockServer, MockServer]> {
  servers = await Promise.all([0, 1].map(() => startMockServer({ seed: 5, shape: { scale: 0.02 } })));
  return servers as [MockServer, MockServer];
}

function model(server: MockServer, runId: string, turn: number, purpose: 'agent' | 'compaction', text: string): Promise<Response> {
  const body = {
    model: 'm',
    messages: [{ role: 'user', content: text }],
    ...(purpose === 'agent' ? { tools: CHAT_TOOLS } : {}),
    metadata: { longrun_run_id: runId, longrun_turn: String(turn), longrun_purpose: purpose },
  };
  return fetch(`${server.modelBaseUrl}/chat/completions`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { [BINARY_HEADER]: 'v1' },
  });
}

/** The first turn of the run whose planned answer has text: a compaction after it must show that text. */
function textTurn(server: MockServer, runId: string): number {
  return (
    server.planFor(runId).turns.findIndex((turn) => typeof turn.message.content === 'string' && turn.message.content.trim() !== '') + 1
  );
}

describe('gatherReplicasVerdict', () => {
  it("fails a split run on the refusal one replica gave, which the other's records alone would pass", async () => {
    const [a, b] = await replicas();
    const turn = textTurn(a, 'run-0001');
    expect(turn).toBeGreaterThan(0);
    expect((await model(b, 'run-0001', 1, 'agent', 'go')).status).toBe(200);
    expect((await model(a, 'run-0001', turn, 'agent', 'go')).status).toBe(200);
    // The digest leaves out the answer the run was just given: a broken compaction input.
    expect((await model(a, 'run-0001', turn + 1, 'compaction', 'no answer shown')).status).toBe(400);

    const merged = await gatherReplicasVerdict([a.url, b.url], 'run-0001', ['v1']);
    expect(merged.status).toBe('fail');
    expect(merged.evidence).toEqual([
      expect.stringMatching(
        new RegExp(`^compaction model request of turn ${turn + 1} refused with HTTP 400: body.messages: .*leaves out the assistant text`),
      ),
    ]);
    expect(await gatherReplicasVerdict([b.url], 'run-0001', ['v1'])).toMatchObject({ status: 'pass' });
  });

  it("passes a split run none refused, counting every replica's requests, and counts a refusal no run is told from against it", async () => {
    const [a, b] = await replicas();
    await model(a, 'run-0002', 1, 'agent', 'go');
    await model(b, 'run-0002', 2, 'agent', 'go');
    await model(b, 'run-0003', 1, 'agent', 'go');
    expect(await gatherReplicasVerdict([a.url, b.url], 'run-0002', ['v1'])).toEqual({
      id: 'requests.accepted',
      status: 'pass',
      evidence: ['2 requests to the mocks, none refused'],
    });
    await fetch(`${b.modelBaseUrl}/chat/completions`, { method: 'POST', body: '{}' });
    const merged = await gatherReplicasVerdict([a.url, b.url], 'run-0002', ['v1']);
    expect(merged.status).toBe('fail');
    expect(merged.evidence).toEqual([expect.stringContaining('agent model request (no run could be told from it) refused with HTTP 400')]);
  });

  it('names the replica it could not read: a verdict without it could lose a refusal', async () => {
    const [a] = await replicas();
    await expect(replicaRecords(`${a.url}/elsewhere`, 'run-1')).rejects.toThrow(
      new RegExp(`^mock replica ${a.url}/elsewhere/longrun/records\\?run=run-1: HTTP 404`),
    );
    await a.close();
    servers = servers.slice(1);
    await expect(gatherReplicasVerdict([a.url], 'run-1', ['v1'])).rejects.toThrow(
      `mock replica ${a.url}/longrun/records?run=run-1: fetch failed`,
    );
  });
});
