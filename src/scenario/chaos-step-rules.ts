/**
 * Which fields each chaos action takes, beyond what the schema's types say: one trigger
 * (`after`, `atTurn` or `probability`; none for force-replay), the fields of its action, and
 * the attributes of its network fault. Pure, so the scenario schema can call it.
 */

export const CHAOS_ACTIONS = [
  'kill-worker',
  'upgrade-worker',
  'restart-server',
  'network',
  'force-replay',
  'restart-database',
  'delete-stored',
  'restart-service',
] as const;
export type ChaosAction = (typeof CHAOS_ACTIONS)[number];

/**
 * Links Toxiproxy can stand on: the workers' gRPC to the Temporal frontend, the activities' HTTP
 * to the model, the embedded server's SQL to its PostgreSQL (server.persistence postgres), the
 * workers' HTTP to the S3 store of External Storage (a binary that offloads).
 */
export const NETWORK_LINKS = ['worker-temporal', 'activities-model', 'temporal-postgres', 'workers-store'] as const;
/** The services of the embedded server run as processes of their own (`server.topology: services`); restart-service's `service`. */
export const SERVER_SERVICES = ['frontend', 'history', 'matching', 'worker'] as const;

export const NETWORK_FAULTS = ['latency', 'bandwidth', 'timeout', 'reset_peer', 'down'] as const;
export type NetworkFault = (typeof NETWORK_FAULTS)[number];

/**
 * How the workers of a versioned upgrade (`upgrade-worker` with `versioning`) declare their runs:
 * Worker Versioning's default versioning behavior, pinned (a run stays on the build it started on)
 * or auto-upgrade (a run moves to the current version at its next workflow task).
 */
export const VERSIONING_BEHAVIORS = ['pinned', 'auto-upgrade'] as const;
export type VersioningBehaviorName = (typeof VERSIONING_BEHAVIORS)[number];

const TRIGGERS = ['after', 'atTurn', 'probability'] as const;

const ACTION_FIELDS: Record<ChaosAction, { required: readonly string[]; optional: readonly string[] }> = {
  'kill-worker': { required: [], optional: ['binary', 'to', 'part'] },
  'upgrade-worker': { required: ['to'], optional: ['binary', 'overlap', 'versioning'] },
  'restart-server': { required: [], optional: ['downFor'] },
  network: { required: ['link', 'fault', 'for'], optional: ['stream', 'toxicity', 'latencyMs', 'jitterMs', 'rateKBps', 'timeoutMs'] },
  'force-replay': { required: [], optional: [] },
  'restart-database': { required: [], optional: ['downFor'] },
  'delete-stored': { required: [], optional: ['objects'] },
  'restart-service': { required: ['service'], optional: ['downFor'] },
};

const FAULT_ATTRIBUTES: Record<NetworkFault, { required: readonly string[]; optional: readonly string[] }> = {
  latency: { required: ['latencyMs'], optional: ['jitterMs', 'stream', 'toxicity'] },
  bandwidth: { required: ['rateKBps'], optional: ['stream', 'toxicity'] },
  timeout: { required: ['timeoutMs'], optional: ['stream', 'toxicity'] },
  reset_peer: { required: [], optional: ['timeoutMs', 'stream', 'toxicity'] },
  down: { required: [], optional: [] },
};

const ATTRIBUTES = ['stream', 'toxicity', 'latencyMs', 'jitterMs', 'rateKBps', 'timeoutMs'];

export interface StepProblem {
  path: string[];
  message: string;
}

/** What is wrong with a chaos step whose fields each have the right type; empty when nothing. */
export function chaosStepProblems(step: { action: ChaosAction } & Record<string, unknown>): StepProblem[] {
  const problems: StepProblem[] = [];
  const has = (field: string) => step[field] !== undefined;
  const triggers = TRIGGERS.filter(has);
  if (step.action === 'force-replay') {
    for (const trigger of triggers) {
      problems.push({ path: [trigger], message: 'force-replay holds for the whole scenario: it takes no after, atTurn or probability' });
    }
  } else if (triggers.length === 0) {
    problems.push({ path: [], message: `${step.action} needs a trigger: after (a duration), atTurn (a turn) or probability (per turn)` });
  } else if (triggers.length > 1) {
    problems.push({ path: [triggers[1] as string], message: `one trigger per step: ${triggers.join(' and ')} are both set` });
  }
  if (has('times') && !has('probability')) problems.push({ path: ['times'], message: 'times counts strikes of a probability trigger' });

  const fields = ACTION_FIELDS[step.action];
  for (const field of fields.required) {
    if (!has(field)) problems.push({ path: [field], message: `${step.action} needs ${field}` });
  }
  const allowed = new Set([...TRIGGERS, 'times', 'action', ...fields.required, ...fields.optional]);
  for (const field of Object.keys(step)) {
    if (has(field) && !allowed.has(field)) problems.push({ path: [field], message: `${field} does not apply to ${step.action}` });
  }
  if (has('versioning') && has('overlap')) {
    problems.push({
      path: ['overlap'],
      message: 'a versioned upgrade keeps the old workers until their pinned runs are done: it takes no overlap',
    });
  }
  const fault = step.fault as NetworkFault | undefined;
  if (step.action === 'network' && fault) {
    const attributes = FAULT_ATTRIBUTES[fault];
    for (const field of attributes.required) {
      if (!has(field)) problems.push({ path: [field], message: `a ${fault} fault needs ${field}` });
    }
    for (const field of ATTRIBUTES) {
      if (has(field) && ![...attributes.required, ...attributes.optional].includes(field)) {
        problems.push({ path: [field], message: `${field} does not apply to a ${fault} fault` });
      }
    }
  }
  return problems;
}

/**
 * Chaos steps that do not fit the server's topology: restart-service needs the services as
 * processes of their own, restart-server the single process; read from what may be only partly valid.
 */
export function chaosTopologyProblems(chaos: unknown, topology: unknown): { path: (string | number)[]; message: string }[] {
  if (!Array.isArray(chaos)) return [];
  return chaos.flatMap((step: { action?: unknown }, index) => {
    const path = ['chaos', index, 'action'];
    if (step?.action === 'restart-service' && topology !== 'services') {
      return [{ path, message: 'restart-service kills one service of server.topology: services (this scenario runs a single process)' }];
    }
    if (step?.action === 'restart-server' && topology === 'services') {
      return [{ path, message: 'restart-server restarts the single-process server; with server.topology: services, use restart-service' }];
    }
    return [];
  });
}
