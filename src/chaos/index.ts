/**
 * Chaos for long runs: worker crashes and restarts, rolling upgrades, Temporal server restarts,
 * network faults through Toxiproxy and forced replay, struck while the runner's runs go on.
 * The runner uses it for every scenario with `chaos` steps (README.md beside this file).
 */
export { ChaosController, type ChaosStrike, type ChaosTargets } from './chaos-controller.ts';
export { type ChaosPlan, type NetworkLink, type PlannedStep, planChaos, strikesAt } from './chaos-plan.ts';
export { type ChaosEvent, type ChaosSession, type ChaosSessionOptions, startChaosSession } from './chaos-session.ts';
export { killAllChildren, killStrikingChildren } from './child-processes.ts';
export { type RestartableServer, startRestartableServer } from './restartable-server.ts';
export { servedBinaries } from './served-binaries.ts';
export { startToxiproxy, type Toxic, type Toxiproxy } from './toxiproxy.ts';
export { binaryOfIdentity, workerIdentity } from './worker-messages.ts';
export { type CrashedPart, type QueueWorker, WorkerPool, type WorkerPoolOptions } from './worker-pool.ts';
