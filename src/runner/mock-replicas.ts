/**
 * `--mock-replicas` (`mockReplicas` of runScenario): the runs' model and sandbox traffic goes to
 * `longrun mock-server` replicas instead of this process's own mocks, and each run's
 * `requests.accepted` is gathered from every replica once it has ended (replica-refusals.ts).
 * Resolved here alone. Default: none, this process's own mocks. This process's own workers talk
 * to the first replica listed (name the nearest first); workers elsewhere to theirs
 * (`LONGRUN_MOCK_URL`).
 */
import type { MockRecord } from '../../mocks/index.ts';
import type { InvariantResult } from '../checks/index.ts';
import type { Scenario } from '../scenario/scenario-schema.ts';
import { replicaRecords, replicasVerdict } from './replica-refusals.ts';

/** What the flag takes, for its usage line and errors. */
export const MOCK_REPLICAS_WANT = 'http(s) URLs of `longrun mock-server`s, comma-separated: http://10.0.0.7:8700,http://10.0.0.8:8700';

/** How the evidence of a run whose records could not be gathered begins. */
export const NOT_GATHERED = 'the requests could not be gathered';

/** The URL without its trailing slashes; undefined when it is not an http(s) URL. */
export function mockUrlOf(raw: string): string | undefined {
  return /^https?:\/\/[^\s/,]+/.test(raw) ? raw.replace(/\/+$/, '') : undefined;
}

/** The replicas a comma-separated list names, each once; undefined when one is not an http(s) URL (the flag's parse). */
export function mockReplicaList(raw: string): string[] | undefined {
  const urls = raw.split(',').map((part) => mockUrlOf(part.trim()));
  return urls.length > 0 && urls.every((url) => url !== undefined) ? [...new Set(urls as string[])] : undefined;
}

/** The option resolved: undefined (this process's mocks) or the replicas, each once; throws naming an entry that is no URL. */
export function resolveMockReplicas(option: readonly string[] | undefined): string[] | undefined {
  if (option === undefined) return undefined;
  if (option.length === 0) throw new Error(`mockReplicas: none given: want ${MOCK_REPLICAS_WANT}`);
  const bad = option.find((url) => mockUrlOf(url) === undefined);
  if (bad !== undefined) throw new Error(`mockReplicas: ${JSON.stringify(bad)} is no http(s) URL: want ${MOCK_REPLICAS_WANT}`);
  return [...new Set(option.map((url) => mockUrlOf(url) as string))];
}

/**
 * Why the scenario cannot run on replicas, or undefined when it can: this process's workers are
 * the only ones it points at a replica, so workers apart (chaos, its proxies) and a foreign
 * target's commands would still talk to mocks of their own.
 */
export function mockReplicasRefusal(scenario: Scenario, workersApart: boolean): string | undefined {
  const why =
    'external' in scenario.target
      ? 'has a foreign target (its workers are started with mocks of their own)'
      : workersApart
        ? "runs its workers apart (chaos, or asked): their mocks and network proxies are this process's"
        : undefined;
  return why && `--mock-replicas: scenario ${scenario.name} cannot run on mock replicas: it ${why}`;
}

/** The model and sandbox base URLs of a replica, as `longrun worker --mock-url` uses them. */
export function replicaEndpoints(url: string): { modelBaseUrl: string; sandboxBaseUrl: string } {
  return { modelBaseUrl: `${url}/v1`, sandboxBaseUrl: `${url}/sandbox/v1` };
}

/** Every replica answers its records before a run starts: one that does not is named, and nothing runs. */
export async function probeReplicas(urls: readonly string[]): Promise<void> {
  await Promise.all(urls.map((url) => replicaRecords(url, 'longrun-probe')));
}

/**
 * `requests.accepted` from the replicas, and the records it read (the summary's input tokens).
 * A replica that cannot be read fails the run's verdict with its address: a verdict without it
 * could lose a refusal, and the report is still written (`couldNotGather` makes the exit 2).
 */
export class ReplicaVerdicts {
  /** The records of the runs gathered so far, each run's once. */
  readonly records: MockRecord[] = [];

  constructor(private readonly urls: readonly string[]) {}

  async verdict(runId: string, binaries: readonly string[]): Promise<InvariantResult> {
    let replicas: MockRecord[][];
    try {
      replicas = await Promise.all(this.urls.map((url) => replicaRecords(url, runId)));
    } catch (error) {
      return { id: 'requests.accepted', status: 'fail', evidence: [`${NOT_GATHERED}: ${(error as Error).message.split('\n')[0]}`] };
    }
    for (const records of replicas) this.records.push(...records.filter((record) => record.runId === runId));
    return replicasVerdict(replicas, runId, binaries);
  }
}

/** Whether the result says a replica could not be read (the run's requests were not judged). */
export function couldNotGather(result: Pick<InvariantResult, 'id' | 'status' | 'evidence'>): boolean {
  return result.id === 'requests.accepted' && result.status === 'fail' && (result.evidence[0] ?? '').startsWith(NOT_GATHERED);
}
