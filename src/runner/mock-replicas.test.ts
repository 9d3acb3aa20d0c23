import { afterEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../mocks/index.ts';
import { resolveScenario } from '../scenario/index.ts';
import {
  couldNotGather,
  mockReplicaList,
  mockReplicasRefusal,
  probeReplicas,
  ReplicaVerdicts,
  replicaEndpoints,
  resolveMockReplicas,
} from './mock-replicas.ts';

let servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

/** The URL of a replica that was up and is gone: nothing listens there. */
async function goneReplica(): Promise<string> {
  const server = await startMockServer({ seed: 5 });
  await server.close();
  return server.url;
}

describe('the mock replicas option', () => {
  it('is none by default, and each replica once, without trailing slashes, in the order given', () => {
    expect(resolveMockReplicas(undefined)).toBeUndefined();
    expect(resolveMockReplicas(['http://b:8700/', 'http://a:8700', 'http://b:8700'])).toEqual(['http://b:8700', 'http://a:8700']);
    expect(mockReplicaList('http://b:8700/, https://a:8700')).toEqual(['http://b:8700', 'https://a:8700']);
  });

  it('refuses an entry that is no http(s) URL, and an empty list, naming what it wants', () => {
    expect(() => resolveMockReplicas([])).toThrow('mockReplicas: none given: want http(s) URLs');
    expect(() => resolveMockReplicas(['http://a:8700', 'a:8700'])).toThrow('mockReplicas: "a:8700" is no http(s) URL: want http(s) URLs');
    expect(mockReplicaList('http://a:8700,')).toBeUndefined();
    expect(mockReplicaList('http://a:8700,ftp://b')).toBeUndefined();
  });

  it("points a worker at a replica's model and sandbox as `longrun worker --mock-url` does", () => {
    expect(replicaEndpoints('http://a:8700')).toEqual({ modelBaseUrl: 'http://a:8700/v1', sandboxBaseUrl: 'http://a:8700/sandbox/v1' });
  });

  it('is refused where workers or a foreign target would talk to mocks of their own', () => {
    const { scenario: smoke } = resolveScenario('smoke');
    expect(mockReplicasRefusal(smoke, false)).toBeUndefined();
    expect(mockReplicasRefusal(smoke, true)).toBe(
      "--mock-replicas: scenario smoke cannot run on mock replicas: it runs its workers apart (chaos, or asked): their mocks and network proxies are this process's",
    );
    const { scenario: foreign } = resolveScenario('scenarios/pydantic-ai-py-smoke.yaml');
    expect(mockReplicasRefusal(foreign, false)).toMatch(/cannot run on mock replicas: it has a foreign target/);
  });
});

describe('ReplicaVerdicts', () => {
  it('names a replica that does not answer, before any run (the probe) and in the verdict of a run after', async () => {
    const up = await startMockServer({ seed: 5 });
    servers.push(up);
    const gone = await goneReplica();
    await expect(probeReplicas([up.url])).resolves.toBeUndefined();
    await expect(probeReplicas([up.url, gone])).rejects.toThrow(`mock replica ${gone}/longrun/records?run=longrun-probe: fetch failed`);

    const verdict = await new ReplicaVerdicts([up.url, gone]).verdict('run-0001', ['v1']);
    expect(verdict).toEqual({
      id: 'requests.accepted',
      status: 'fail',
      evidence: [`the requests could not be gathered: mock replica ${gone}/longrun/records?run=run-0001: fetch failed`],
    });
    expect(couldNotGather(verdict)).toBe(true);
  });

  it("passes a run no replica refused, keeping that run's records alone; a refusal is no gathering failure", async () => {
    const [a, b] = await Promise.all([startMockServer({ seed: 5 }), startMockServer({ seed: 5 })]);
    servers.push(a, b);
    const verdicts = new ReplicaVerdicts([a.url, b.url]);
    const passed = await verdicts.verdict('run-0001', ['v1']);
    expect(passed).toEqual({ id: 'requests.accepted', status: 'pass', evidence: ['0 requests to the mocks, none refused'] });
    expect(couldNotGather(passed)).toBe(false);
    // A request no run can be told from counts against every run: a failure, but a judged one.
    await fetch(`${b.modelBaseUrl}/chat/completions`, { method: 'POST', body: '{}' });
    const refused = await verdicts.verdict('run-0002', ['v1']);
    expect(refused.status).toBe('fail');
    expect(couldNotGather(refused)).toBe(false);
    expect(verdicts.records).toEqual([]);
  });
});
