/**
 * Foreign workers for a pool (`target.external`): each binary's command, started on demand (a
 * foreign program polls as soon as it starts: it cannot be held as a standby), one process for
 * its workflows and its activities. Seen from outside: a run starts a turn when the mock model
 * first answers that turn's agent request, and a worker is quiet when the mocks have no request
 * open. The cluster, the mocks (or a proxy in front of the model) and the cache setting reach it
 * through its environment (src/contract/worker-env.ts).
 */
import type { Client } from '@temporalio/client';
import type { MockServer } from '../../mocks/index.ts';
import type { BinaryName } from '../kernel/index.ts';
import type { ForeignCommand } from './foreign-command.ts';
import { ForeignWorker } from './foreign-worker.ts';
import type { QueueWorker, TurnListener, WorkerKind } from './worker-kind.ts';

export interface ForeignWorkerKindOptions {
  /** Each binary's worker command, by the name the scenario gives it. */
  commands: ReadonlyMap<BinaryName, ForeignCommand>;
  /** Asked whether a worker polls yet. */
  client: Client;
  /** The frontend, or a proxy in front of it. */
  address: string;
  namespace: string;
  mocks: MockServer;
  /** The model's base URL when a proxy stands in front of the mocks. */
  modelUrl?: string;
  maxCachedWorkflows?: number;
  /** The cluster is the user's (TEMPORAL_ADDRESS): its workers get its key. */
  userCluster?: boolean;
}

export class ForeignWorkerKind implements WorkerKind<ForeignWorker> {
  readonly separateActivities = false;
  private readonly identities = new Map<string, BinaryName>();

  constructor(private readonly options: ForeignWorkerKindOptions) {}

  async start({ runs }: QueueWorker, taskQueue: string): Promise<ForeignWorker> {
    const command = runs === 'activities' ? undefined : this.options.commands.get(runs);
    if (!command) throw new Error(`no foreign worker command for ${runs}`);
    const { client, address, namespace, mocks, modelUrl, maxCachedWorkflows, userCluster } = this.options;
    const worker = await ForeignWorker.start({
      name: runs,
      command,
      client,
      address,
      namespace,
      taskQueue,
      mockUrl: mocks.url,
      requestsInFlight: () => mocks.requestsInFlight(),
      ...(modelUrl ? { modelUrl } : {}),
      ...(maxCachedWorkflows !== undefined ? { maxCachedWorkflows } : {}),
      ...(userCluster ? { userCluster } : {}),
    });
    if (worker.identity) this.identities.set(worker.identity, runs);
    return worker;
  }

  onTurnStarted(listener: TurnListener): () => void {
    return this.options.mocks.recorder.onRecord((record) => {
      if (record.target === 'agent' && record.runId !== null && record.turn !== null) listener(record.runId, record.turn);
    });
  }

  binaryOfIdentity(identity: string): BinaryName | undefined {
    return this.identities.get(identity);
  }
}
