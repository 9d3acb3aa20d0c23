/**
 * `requests.accepted` of a run whose requests went to several `longrun mock-server` replicas:
 * each replica recorded only the requests it answered, so a refusal one of them gave is in its
 * records alone. The judge reads every replica's records of the run (GET
 * {url}/longrun/records?run=ID) and gives one verdict over all of them, as one mock would.
 */
import type { MockRecord } from '../../mocks/index.ts';
import { RECORDS_PATH } from '../../mocks/index.ts';
import type { InvariantResult } from '../checks/index.ts';
import { RequestRefusals } from './request-refusals.ts';

/** A replica's records of the run: its requests and the refusals no run could be told from. */
export async function replicaRecords(url: string, runId: string): Promise<MockRecord[]> {
  const address = `${url.replace(/\/+$/, '')}${RECORDS_PATH}?run=${encodeURIComponent(runId)}`;
  let response: Response;
  try {
    response = await fetch(address);
  } catch (error) {
    throw new Error(`mock replica ${address}: ${(error as Error).message}`);
  }
  const text = await response.text();
  // A replica not heard is a refusal that could be lost: no verdict without it.
  if (!response.ok) throw new Error(`mock replica ${address}: HTTP ${response.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as MockRecord[];
}

/** One verdict of the run `runId` on `binaries` over the records of every replica. */
export function replicasVerdict(replicas: readonly (readonly MockRecord[])[], runId: string, binaries: readonly string[]): InvariantResult {
  const refusals = new RequestRefusals({
    onRecord(listener) {
      for (const records of replicas) for (const record of records) listener(record);
      return () => {};
    },
  });
  return refusals.verdict(runId, binaries);
}

/** Every replica's records of the run, read now (the run has ended), in one verdict. */
export async function gatherReplicasVerdict(urls: readonly string[], runId: string, binaries: readonly string[]): Promise<InvariantResult> {
  const replicas = await Promise.all(urls.map((url) => replicaRecords(url, runId)));
  return replicasVerdict(replicas, runId, binaries);
}
