/**
 * longrun's programmatic API, for vitest users and scripts:
 *   const { scenario } = resolveScenario('smoke');
 *   const summary = await runScenario(scenario);
 * It installs no signal handler: pass `signal` to stop a scenario (a partial summary; during the
 * start-up it rejects with an InterruptedError instead, once everything started is gone), and call
 * `killAllChildren()` from your own handler to end its chaos processes at once.
 */

export { killAllChildren } from './chaos/index.ts';
export {
  type CheckContext,
  checkRun,
  INVARIANTS,
  type KernelMapping,
  loadHistory,
  loadHistoryFile,
  parseKernelMapping,
  type RunVerdict,
} from './checks/index.ts';
export { DEFAULT_HARNESS_QUEUE, type HarnessWorker, startHarnessWorker } from './distributed/harness-worker.ts';
export { queueDriver } from './distributed/queue-driver.ts';
export { queueJudge } from './distributed/queue-judge.ts';
export { type Environment, type EnvironmentOptions, startEnvironment } from './environment/index.ts';
export { BINARIES, type BinaryId, CURRENT_BINARY } from './kernel/index.ts';
export { renderText, writeReport } from './report/index.ts';
export type { RunRecord, Summary } from './result/index.ts';
export type { DriveRequest, RunDriver } from './runner/driven-elsewhere.ts';
export type { JudgingRequest, RunJudge } from './runner/judged-elsewhere.ts';
export { gatherReplicasVerdict, replicaRecords, replicasVerdict } from './runner/replica-refusals.ts';
export { type Progress, type RunScenarioOptions, runScenario } from './runner/run-scenario.ts';
export { listScenarios, parseScenario, resolveScenario, type Scenario, type ScenarioInput, scenarioSchema } from './scenario/index.ts';
export { InterruptedError } from './shared/interrupted.ts';
