/**
 * A scenario's chaos steps, checked against the scenario (the binaries they name must be in
 * play) and resolved: which task queues each step acts on, what the harness must set up (child
 * workers always; Toxiproxy on the links named; a restartable server), and a label per step.
 * The binaries are the kernel's (`target.binaries`) or a foreign target's, whose workers are
 * one process each (a kill takes the whole worker).
 */
import { createHash } from 'node:crypto';
import type { BinaryName } from '../kernel/index.ts';
import { NETWORK_LINKS, type VersioningBehaviorName } from '../scenario/chaos-step-rules.ts';
import { launchedBinaries } from '../scenario/external-target.ts';
import type { ChaosStep, Scenario } from '../scenario/scenario-schema.ts';
import { durationMs } from '../scenario/scenario-schema.ts';
import type { QueueWorker } from './worker-kind.ts';

export type NetworkLink = (typeof NETWORK_LINKS)[number];

export interface PlannedStep {
  index: number;
  step: ChaosStep;
  /** "kill-worker at turn 5", for logs and the verdict. */
  label: string;
  /** The task queues (named by the binary they started with) a worker action acts on. */
  queues: BinaryName[];
}

export interface ChaosPlan {
  /** The steps that strike (force-replay is a setting, not a strike). */
  steps: PlannedStep[];
  /** Every worker caches no workflow: each task replays the history. */
  forceReplay: boolean;
  links: NetworkLink[];
  restartsServer: boolean;
  /** A step stops and starts PostgreSQL: the scenario needs server.persistence postgres. */
  restartsDatabase: boolean;
  /** One task queue per target binary, each named after it. */
  queues: BinaryName[];
  /** The workers strikes will start: restarts (as the queue's binaries, or as `to`) and upgrades. */
  standbys: QueueWorker[];
  /** The binaries in play: the target's, then those chaos brings in (upgrades, restarts as). */
  binaries: BinaryName[];
  /** The queues a versioned upgrade acts on (Worker Versioning), with their runs' versioning behavior. */
  versioning: Map<BinaryName, VersioningBehaviorName>;
}

export function planChaos(scenario: Scenario): ChaosPlan {
  const external = 'external' in scenario.target ? scenario.target.external : undefined;
  const target = external ? launchedBinaries(external) : 'binaries' in scenario.target ? scenario.target.binaries : [];
  const binaries = [...target];
  const steps: PlannedStep[] = [];
  scenario.chaos.forEach((step, index) => {
    if (step.binary && !target.includes(step.binary)) {
      throw new Error(`chaos.${index}.binary: ${step.binary} is not among target.binaries (${target.join(', ')})`);
    }
    if (step.to && !binaries.includes(step.to)) binaries.push(step.to);
    if (step.action === 'force-replay') return;
    steps.push({ index, step, label: labelOf(step, external !== undefined), queues: step.binary ? [step.binary] : target });
  });
  const versioning = versionedQueues(steps, external !== undefined);
  const links = NETWORK_LINKS.filter((link) => scenario.chaos.some((step) => step.link === link));
  const standbys = new Map<string, QueueWorker>();
  const needs = (queue: BinaryName, runs: QueueWorker['runs']) => standbys.set(`${queue}>${runs}`, { queue, runs });
  for (const { step, queues } of steps) {
    for (const queue of queues) {
      if (step.action === 'upgrade-worker' && step.versioning) {
        // The new build's workflows and activities: a versioned run's activity tasks go to its build's workers only.
        const version = { build: upgradeTarget(step), behavior: step.versioning };
        standbys.set(`${queue}>${version.build}@${version.build}`, { queue, runs: version.build, version });
        standbys.set(`${queue}>activities@${version.build}`, { queue, runs: 'activities', version });
        continue;
      }
      if (step.action === 'upgrade-worker') needs(queue, upgradeTarget(step));
      if (step.action !== 'kill-worker') continue;
      if (step.part !== 'workflows' && step.part !== undefined) needs(queue, 'activities');
      if (step.part === 'activities') continue;
      if (step.to) {
        needs(queue, step.to);
        continue;
      }
      // Crashed workflows restart as the binary they ran: the queue's own, or one an upgrade brought in.
      needs(queue, queue);
      for (const other of steps) {
        if (other.step.action === 'upgrade-worker' && other.queues.includes(queue)) needs(queue, upgradeTarget(other.step));
      }
    }
  }
  return {
    steps,
    forceReplay: scenario.chaos.some((step) => step.action === 'force-replay'),
    links,
    restartsServer: scenario.chaos.some((step) => step.action === 'restart-server'),
    restartsDatabase: scenario.chaos.some((step) => step.action === 'restart-database'),
    queues: target,
    standbys: [...standbys.values()],
    binaries,
    versioning,
  };
}

/**
 * The queues versioned upgrades act on. Such a queue's workers all poll as builds of its
 * deployment, so another worker step there (a kill and its unversioned replacement, a rolling
 * upgrade, a second versioned upgrade) is refused, as is a foreign target (its workers would have
 * to declare the versions themselves).
 */
function versionedQueues(steps: readonly PlannedStep[], foreign: boolean): Map<BinaryName, VersioningBehaviorName> {
  const versioning = new Map<BinaryName, VersioningBehaviorName>();
  for (const { index, step, queues } of steps) {
    if (step.action !== 'upgrade-worker' || !step.versioning) continue;
    if (foreign) throw new Error(`chaos.${index}.versioning: a versioned upgrade runs the kernel's workers, not a target.external's`);
    for (const queue of queues) {
      if (versioning.has(queue)) throw new Error(`chaos.${index}: task queue ${queue} has a versioned upgrade already (one per queue)`);
      versioning.set(queue, step.versioning);
    }
  }
  for (const { index, step, queues } of steps) {
    const workerStep = step.action === 'kill-worker' || (step.action === 'upgrade-worker' && !step.versioning);
    const versioned = queues.find((queue) => versioning.has(queue));
    if (workerStep && versioned) {
      throw new Error(
        `chaos.${index}: ${step.action} on task queue ${versioned}, which a versioned upgrade acts on (its workers poll as deployment versions)`,
      );
    }
  }
  return versioning;
}

/** The binary an upgrade-worker step brings in: the scenario schema requires `to` there. */
export function upgradeTarget(step: ChaosStep): BinaryName {
  if (!step.to) throw new Error(`chaos: ${step.action} without a binary to upgrade to`);
  return step.to;
}

/** `wholeWorker`: a foreign worker, whose kill takes its workflows and activities together. */
function labelOf(step: ChaosStep, wholeWorker: boolean): string {
  const what =
    step.action === 'network'
      ? `network ${step.fault} on ${step.link} for ${step.for}`
      : step.action === 'upgrade-worker'
        ? `upgrade-worker${step.binary ? ` ${step.binary}` : ''} to ${step.to}${step.versioning ? ` (Worker Versioning, ${step.versioning})` : ''}`
        : step.action === 'restart-service'
          ? `restart-service ${step.service}`
          : step.action === 'kill-worker'
            ? `kill-worker${step.binary ? ` ${step.binary}` : ''} (${step.part ?? (wholeWorker ? 'both' : 'workflows')}${step.to ? `, restart as ${step.to}` : ''})`
            : step.action;
  const when =
    step.after !== undefined
      ? `after ${step.after}`
      : step.atTurn !== undefined
        ? `at turn ${step.atTurn}`
        : `with probability ${step.probability} per turn${(step.times ?? 1) > 1 ? `, up to ${step.times} times` : ''}`;
  return `${what} ${when}`;
}

/** Whether a probability step strikes at this turn of this run: seeded, so every run of the scenario agrees. */
export function strikesAt(seed: number, step: PlannedStep, runId: string, turn: number): boolean {
  const probability = step.step.probability ?? 0;
  const digest = createHash('sha256').update(`${seed}:${step.index}:${runId}:${turn}`).digest();
  return digest.readUInt32BE(0) / 0x1_0000_0000 < probability;
}

export function stepDurationMs(value: ChaosStep['after'], fallbackMs: number): number {
  return value === undefined ? fallbackMs : durationMs(value);
}
