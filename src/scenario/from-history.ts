/**
 * `longrun scenario from-history`: a scenario that replays a recorded run's shape (its turns,
 * tool calls and sizes, profileRun) against the same binary, with the server's and the kernel's
 * limits scaled together with the plan so that the same limit breaks at the same turn in
 * seconds. Only sizes and tool names go into it: its content is synthetic, seeded from the
 * source's hash, so it can be shared where the history cannot.
 */

import { stringify } from 'yaml';
import type { FaultRule, FaultSpec } from '../../mocks/index.ts';
import { planContextBytes, planRun, type RunPlan } from '../../mocks/synthetic/plan-run.ts';
import type { RunShapeInput, TurnsProfile } from '../../mocks/synthetic/run-shape.ts';
import { MIN_SCREENSHOT_BYTES } from '../../mocks/synthetic/screenshot.ts';
import {
  type ForecastLimits,
  forecastLimits,
  forecastRun,
  profileRun,
  type RunProfile,
  type RunView,
  SERVER_LIMITS,
  type ServerLimits,
} from '../checks/index.ts';
import type { KernelLimits } from '../contract/kernel-api.ts';
import { TOOL_NAMES, type ToolName } from '../contract/messages.ts';
import { BINARY_IDS } from '../kernel/index.ts';
import { runFailures, type WorkerPart } from './from-history-failures.ts';
import { defaultTimeScale, PACING_BUDGET_MS, pacingRules, turnGaps } from './from-history-pacing.ts';
import type { ForeignTarget } from './target-from-scenario.ts';

/** The scaled limits the built-in incidents reproduce at in seconds (scenarios/tmprl1103.yaml, history-size.yaml). */
const FAST_BLOB_LIMIT = 256 * 1024;
const FAST_HISTORY_SIZE_LIMIT = 2 * 1024 * 1024;
/** A screenshot's text beyond this is the page's text, not only its caption. */
const CAPTION_BYTES = 120;

export interface FromHistoryOptions {
  /** The source file as the user named it, and its sha256 (hex). */
  source: string;
  sha256: string;
  /** The binary to run; default: the one whose task queue the run started on. */
  binary?: string;
  /** A foreign worker's target (`--target`): the scenario runs its binary instead of the kernel's. */
  foreign?: ForeignTarget;
  /** Multiplies every size and byte limit; default: what brings the limit that broke to the built-in incident's. */
  scale?: number;
  /** The server's limits as the source run had them, where known (flags); the rest inferred. */
  server?: Partial<ServerLimits>;
  /** Multiplies the gaps between turns; default: what brings them to PACING_BUDGET_MS in all, at most. */
  timeScale?: number;
}

export interface FromHistory {
  /** The scenario file's text. */
  text: string;
  profile: RunProfile;
  binary: string;
  scale: number;
  timeScale: number;
  /** The server's limits the source is read against (before scaling). */
  server: ServerLimits;
}

/** The binary a task queue names (`…-v0`, `…-go-v0`): the longest of the names it ends with. */
export function binaryOfTaskQueue<T extends string>(queue: string | undefined, names: readonly T[]): T | undefined {
  if (!queue) return undefined;
  return [...names].sort((a, b) => b.length - a.length).find((id) => queue === id || queue.endsWith(`-${id}`));
}

/** The power of two at or above n: a limit a history shows only from below (its largest payload, its size). */
function limitAbove(n: number): number {
  return 2 ** Math.ceil(Math.log2(Math.max(1, n)));
}

function serverLimitsOf(profile: RunProfile, run: RunView, given: Partial<ServerLimits>): ServerLimits {
  const samples = forecastRun(run).samples;
  const largest = Math.max(0, ...samples.map((s) => s.largestPayload));
  // The server's own count at a workflow task is below the limit (the run was alive); the payloads' sum may be past it.
  const counted = Math.max(
    0,
    ...run.executions.flatMap((e) =>
      e.history.events.map((event) => (event.attrs.kind === 'workflow-task' ? (event.attrs.historySizeBytes ?? 0) : 0)),
    ),
  );
  const history = counted > 0 ? counted : Math.max(0, ...samples.map((s) => s.historyBytes));
  const broke = profile.break?.incident;
  return {
    blobLimitBytes:
      given.blobLimitBytes ?? profile.limits.blobLimitBytes ?? (broke === 'tmprl1103' ? limitAbove(largest) : SERVER_LIMITS.blobLimitBytes),
    historySizeLimitBytes:
      given.historySizeLimitBytes ?? (broke === 'history-size' ? limitAbove(history) : SERVER_LIMITS.historySizeLimitBytes),
    historyCountLimit: given.historyCountLimit ?? SERVER_LIMITS.historyCountLimit,
  };
}

function autoScale(profile: RunProfile, server: ServerLimits): number {
  switch (profile.break?.incident) {
    case 'tmprl1103':
      return Math.min(1, FAST_BLOB_LIMIT / server.blobLimitBytes);
    case 'history-size':
      return Math.min(1, FAST_HISTORY_SIZE_LIMIT / server.historySizeLimitBytes);
    default:
      return 1;
  }
}

type ProfiledCall = RunProfile['turns'][number]['calls'][number];
type PlanCall = TurnsProfile[number]['calls'][number];

/** A profiled call as the plan takes it: a tool the mocks know (a screenshot when it carried an image, else a shell's text). */
function planCall(call: ProfiledCall): PlanCall {
  if (call.imageBytes !== undefined) {
    const page = call.textBytes > CAPTION_BYTES ? { pageText: call.textBytes - CAPTION_BYTES } : {};
    return { tool: 'screenshot', bytes: Math.max(MIN_SCREENSHOT_BYTES, call.imageBytes), ...page };
  }
  const tool: ToolName =
    (TOOL_NAMES as readonly string[]).includes(call.tool) && call.tool !== 'screenshot' ? (call.tool as ToolName) : 'shell';
  return { tool, bytes: Math.max(1, call.textBytes), ...(call.jsonBytes === undefined ? {} : { escaped: call.jsonBytes }) };
}

/** A value in YAML's flow style: `{ kind: http-429, retryAfterSeconds: 0 }`, `[4, 7]`. */
function flow(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(flow).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{ ${Object.entries(value)
      .map(([key, inner]) => `${key}: ${flow(inner)}`)
      .join(', ')} }`;
  }
  return String(value);
}

/** The model's failed attempts of each turn as agent fault rules: one per run of the same fault, naming its attempts. */
function modelFaultRules(model: ReadonlyMap<number, FaultSpec[]>, maxTurn: number): FaultRule[] {
  const rules: FaultRule[] = [];
  for (const [turn, faults] of [...model].sort(([a], [b]) => a - b)) {
    if (turn > maxTurn) continue;
    faults.forEach((fault, i) => {
      const last = rules.at(-1);
      if (i > 0 && last && flow(last.fault) === flow(fault)) last.when?.attempts?.push(i + 1);
      else rules.push({ fault, when: { turns: [turn], attempts: [i + 1] } });
    });
  }
  return rules;
}

/** A worker that died at a turn, as a kill there: the part that died (a foreign worker is one process, killed whole). */
function killSteps(deaths: ReadonlyMap<number, Set<WorkerPart>>, foreign: boolean, maxTurn: number): Record<string, unknown>[] {
  return [...deaths]
    .filter(([turn]) => turn <= maxTurn)
    .sort(([a], [b]) => a - b)
    .map(([atTurn, parts]) => {
      const part = foreign || !parts.has('activities') ? undefined : parts.has('workflows') ? 'both' : 'activities';
      return { action: 'kill-worker', atTurn, ...(part ? { part } : {}) };
    });
}

/**
 * What a scale does to the plan by the turn that broke. A turn's framing and call arguments do
 * not scale, so a limit scaled by the scale itself would fall turns early. The blob limit is
 * put halfway through the scaled plan's growth into that turn (its request then is the first
 * past it); the history's is the limit less what the scale takes off the history (every request
 * before, and each message once, as the results carry them), keeping the source's margin.
 */
function scaleEffect(shape: RunShapeInput, seed: number, runId: string, turn: number, scale: number) {
  if (scale === 1) return { blobContext: undefined, historyOff: 0, request: 1, history: 1 };
  const contexts = (plan: RunPlan) =>
    Array.from({ length: Math.min(turn, plan.turns.length) }, (_, k) => planContextBytes({ ...plan, turns: plan.turns.slice(0, k) }));
  const full = contexts(planRun({ seed, runId, shape }));
  const small = contexts(planRun({ seed, runId, shape: { ...shape, scale } }));
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const last = (xs: number[]) => xs.at(-1) ?? 0;
  const before = small.at(-2) ?? 0;
  return {
    blobContext: Math.round(before + (last(small) - before) / 2),
    historyOff: sum(full.slice(0, -1)) - sum(small.slice(0, -1)) + last(full) - last(small),
    request: last(small) / Math.max(1, last(full)),
    history: sum(small) / Math.max(1, sum(full)),
  };
}

/** `target:` the kernel's binary, or the foreign worker's with that binary alone. */
function targetLines(binary: string, foreign: ForeignTarget | undefined): string[] {
  if (!foreign) return ['target:', `  binaries: [${binary}]`];
  const binaries = foreign.external.binaries as Record<string, unknown>;
  const external = { ...foreign.external, binaries: { [binary]: binaries[binary] } };
  return stringify({ target: { external } }, { lineWidth: 0 }).trimEnd().split('\n');
}

/** What a request weighs beyond its messages (model, metadata): the source's last, as the same kernel sends it. */
function requestEnvelope(run: RunView): number {
  const input = run.executions.at(-1)?.turns.at(-1)?.calls[0]?.input;
  return input?.kind === 'call-model' ? input.request.bytes - input.request.messagesBytes : 0;
}

/** Which ratio each kernel limit scales by; the card keeps its size (the built-in incidents' do). */
const LIMIT_MEASURE: Partial<Record<keyof KernelLimits, 'request' | 'history' | 'scale'>> = {
  compactionTriggerBytes: 'request',
  continueAsNewBytes: 'history',
  tailMaxBytes: 'scale',
};

function kib(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${+(bytes / 1024 / 1024).toFixed(2)} MiB` : `${+(bytes / 1024).toFixed(1)} KiB`;
}

const INCIDENT_TEXT: Record<NonNullable<RunProfile['break']>['incident'], string> = {
  tmprl1103: 'TMPRL1103 (a payload past the blob limit)',
  'history-size': 'a termination by the history size limit',
  'history-count': 'a termination by the history count limit',
};

export function scenarioFromHistory(run: RunView, options: FromHistoryOptions): FromHistory {
  const profile = profileRun(run);
  const names: readonly string[] = options.foreign?.names ?? BINARY_IDS;
  const binary = options.binary ?? binaryOfTaskQueue(profile.taskQueue, names);
  if (!binary) {
    throw new Error(
      `which binary ran it? the task queue ${profile.taskQueue === undefined ? '(none recorded)' : `"${profile.taskQueue}"`} names none of ${names.join(', ')}: give --binary`,
    );
  }
  if (!names.includes(binary)) throw new Error(`--binary ${binary}: not one of ${names.join(', ')}`);
  const turns = profile.turns.filter((t) => t.calls.length > 0);
  if (turns.length === 0) throw new Error('the history holds no model turn with tool calls: no shape to replay');
  const server = serverLimitsOf(profile, run, options.server ?? {});
  const scale = options.scale ?? autoScale(profile, server);
  const broke = profile.break;
  const seed = Number.parseInt(options.sha256.slice(0, 8), 16);
  const promptBytes = Math.max(1, profile.systemPromptBytes);
  const turnsProfile: TurnsProfile = turns.map((t) => ({ text: t.textBytes, calls: t.calls.map(planCall) }));
  const shape: RunShapeInput = {
    systemPromptBytes: [
      [0, promptBytes],
      [1, promptBytes],
    ],
    turnsProfile,
  };
  const name = `from-history-${options.sha256.slice(0, 8)}`;
  // The runner names a scenario's first run so; its plan is the one that runs.
  const effect = scaleEffect(shape, seed, `${name}-run-0000`, broke?.turn ?? turns.length + 1, scale);
  const ratios = { request: effect.request, history: effect.history, scale };
  const scaled = (n: number, by: keyof typeof ratios = 'scale') => Math.max(1, Math.round(n * ratios[by]));
  // Only the limit that broke is placed at the turn; another keeps its distance, scaled.
  const blob =
    effect.blobContext !== undefined && broke?.incident === 'tmprl1103'
      ? effect.blobContext + requestEnvelope(run)
      : scaled(server.blobLimitBytes, 'request');
  const historySize = Math.max(1, server.historySizeLimitBytes - effect.historyOff);
  const calls = turns.reduce((sum, t) => sum + t.calls.length, 0);
  const screenshots = turns.reduce((sum, t) => sum + t.calls.filter((c) => c.imageBytes !== undefined).length, 0);

  const dynamic: string[] = [];
  // A limit is written when it broke the run, is scaled, or was not the server's default.
  if (broke?.incident === 'tmprl1103' || scale < 1 || server.blobLimitBytes !== SERVER_LIMITS.blobLimitBytes) {
    dynamic.push(`limit.blobSize.error: ${blob}`, `limit.blobSize.warn: ${Math.round(blob / 4)}`);
  }
  if (broke?.incident === 'history-size' || scale < 1 || server.historySizeLimitBytes !== SERVER_LIMITS.historySizeLimitBytes) {
    dynamic.push(`limit.historySize.error: ${historySize}`, `limit.historySize.warn: ${Math.round(historySize / 2)}`);
  }
  if (broke?.incident === 'history-count') dynamic.push(`limit.historyCount.error: ${server.historyCountLimit}`);
  const limits = Object.entries(profile.limits)
    .filter(([, value]) => typeof value === 'number')
    .map(([key, value]) => {
      // The kernel's blob limit moves with the server's.
      if (key === 'blobLimitBytes') return `${key}: ${Math.round(((value as number) * blob) / server.blobLimitBytes)}`;
      const measure = LIMIT_MEASURE[key as keyof KernelLimits];
      return `${key}: ${measure ? scaled(value as number, measure) : value}`;
    });
  const expectation = broke ? `reproduces: ${flow({ incident: broke.incident, atTurn: broke.turn, within: 1 })}` : 'ends: completed';
  const maxTurns = Math.max(profile.maxTurns, turns.length + 1);
  const failures = runFailures(run);
  const gaps = turnGaps(run);
  // A turn a worker died in is not paced: its stall is the kill's, which the replay spends again.
  for (const turn of failures.deaths.keys()) gaps.delete(turn);
  const timeScale = options.timeScale ?? defaultTimeScale(gaps);
  const pacing = pacingRules(gaps, timeScale);
  const modelFaults = modelFaultRules(failures.model, maxTurns);
  const kills = killSteps(failures.deaths, options.foreign !== undefined, maxTurns);
  const sourceMs = [...gaps.values()].reduce((a, b) => a + b, 0);
  // The first rule that applies wins: a failed attempt's before its turn's pacing.
  const agentRules = [...modelFaults, ...pacing.rules];
  const ended = broke ? `${INCIDENT_TEXT[broke.incident]} at turn ${broke.turn}` : 'no limit broken';
  const forecastLine = forecastOf(run, server);

  const lines = [
    `# From the history ${options.source}`,
    `# (sha256 ${options.sha256}), written by \`longrun scenario from-history\`.`,
    `# The run: ${turns.length} tool turns answered, ${calls} tool calls (screenshots: ${screenshots}); ${broke ? `it broke on ${ended}` : 'it broke no limit'}.`,
    ...(forecastLine ? [`# Forecast over it: ${forecastLine}.`] : []),
    `# This replays its shape on ${binary}: the same turns, tools, output sizes and texts' sizes`,
    `# (shape.turnsProfile); every byte of content is synthetic, seeded from the source's hash.`,
    scale === 1
      ? `# Limits as the source had them: blob ${kib(server.blobLimitBytes)}, history size ${kib(server.historySizeLimitBytes)}.`
      : [
          `# Every size is scaled by ${+scale.toPrecision(4)}, each limit by what that does to the plan at turn ${broke?.turn ?? turns.length + 1}`,
          `# (a turn's framing does not scale): blob ${kib(server.blobLimitBytes)} -> ${kib(blob)}, history size`,
          `# ${kib(server.historySizeLimitBytes)} -> ${kib(historySize)}; \`--scale 1\` writes the unscaled variant.`,
        ].join('\n'),
    `# Pacing: each turn's model answer is held back by the time the source took from that turn's model call`,
    `# to the next's, times ${+timeScale.toPrecision(3)} (\`--time-scale\`; by default the gaps come to ${PACING_BUDGET_MS / 1000} s at most): ${seconds(pacing.totalMs)} in all`,
    `# for the source's ${seconds(sourceMs)}${failures.deaths.size > 0 ? " (a turn a worker died in is left to the kill's own stall)" : ''}.`,
    ...failureLines(modelFaults, kills, failures.notCarried),
    ...(broke ? [`# Expected: ${broke.incident} again, at turn ${broke.turn} (within one).`] : []),
    '',
    `name: ${name}`,
    `description: ${JSON.stringify(`The shape of a recorded run (sha256 ${options.sha256.slice(0, 12)}) on ${binary}: ${ended}.`)}`,
    `seed: ${seed}`,
    '',
    ...targetLines(binary, options.foreign),
    ...(dynamic.length > 0 ? ['', 'server:', '  dynamicConfig:', ...dynamic.map((l) => `    ${l}`)] : []),
    ...(limits.length > 0 ? ['', 'limits:', ...limits.map((l) => `  ${l}`)] : []),
    '',
    'runs:',
    '  count: 1',
    '  concurrency: 1',
    `  maxTurns: ${maxTurns}`,
    `  timeout: ${120 + Math.ceil(pacing.totalMs / 1000)}s`,
    '',
    'shape:',
    ...(scale === 1 ? [] : [`  scale: ${scale}`]),
    `  systemPromptBytes: [[0, ${promptBytes}], [1, ${promptBytes}]]`,
    '  turnsProfile:',
    ...turnsProfile.map((t) => `    - { text: ${t.text}, calls: [${t.calls.map(flow).join(', ')}] }`),
    ...(agentRules.length > 0 ? ['', 'faults:', '  agent:', ...agentRules.map((rule) => `    - ${flow(rule)}`)] : []),
    ...(kills.length > 0 ? ['', 'chaos:', ...kills.map((step) => `  - ${flow(step)}`)] : []),
    '',
    'expect:',
    `  - on: ${binary}`,
    `    ${expectation}`,
    '',
  ];
  return { text: lines.join('\n'), profile, binary, scale, timeScale, server };
}

function seconds(ms: number): string {
  return ms >= 60_000 ? `${+(ms / 60_000).toFixed(1)} min` : `${+(ms / 1000).toFixed(1)} s`;
}

/** What the scenario's faults and chaos carry of the source's failures, and what they leave out. */
function failureLines(
  modelFaults: readonly FaultRule[],
  kills: readonly Record<string, unknown>[],
  notCarried: readonly string[],
): string[] {
  const attempts = modelFaults.reduce((n, rule) => n + (rule.when?.attempts?.length ?? 0), 0);
  const carried = [
    ...(attempts > 0 ? [`${attempts} failed model attempts as agent faults at their turns (by the status each message names)`] : []),
    ...(kills.length > 0 ? [`a worker that died as a kill-worker at turn ${kills.map((k) => k.atTurn).join(', ')}`] : []),
  ];
  return [
    `# Failures: ${carried.length > 0 ? carried.join('; ') : 'none the history shows'}.`,
    ...(notCarried.length > 0 ? [`# Not carried over: ${notCarried.join('; ')}.`] : []),
  ];
}

/** Where the forecast puts the limit that broke (or the first it reaches): "blob limit hit at turn 21". */
function forecastOf(run: RunView, server: ServerLimits): string | undefined {
  const limits: ForecastLimits = forecastLimits(server);
  const forecast = forecastRun(run, limits);
  const reached = Object.values(forecast.metrics)
    .flatMap((m) => m.limits.filter((l) => l.name === 'blob limit' || l.name === 'error'))
    .filter((l) => l.step !== undefined)
    .sort((a, b) => (a.step as number) - (b.step as number))[0];
  if (!reached) return undefined;
  const name =
    reached.name === 'error'
      ? `the ${reached.value === server.historyCountLimit ? 'history count' : 'history size'} limit`
      : 'the blob limit';
  return `${name} ${reached.observed ? 'hit' : 'reached'} at turn ${reached.step}`;
}
