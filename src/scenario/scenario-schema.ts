/**
 * What a scenario file says, as a zod schema: the one source of the TypeScript type, the
 * validation with field-naming errors, and the JSON Schema editors use.
 */
import { z } from 'zod';
import {
  type FaultProfile,
  faultProfileSchema,
  parseFaultProfile,
  type RunShapeInput,
  resolveShape,
  runShapeInputSchema,
} from '../../mocks/index.ts';
import { INCIDENTS, type Incident } from '../checks/incidents.ts';
import { INVARIANT_IDS } from '../checks/verdict.ts';
import { BINARY_IDS, type BinaryName, binaryIdSchema, binaryNameSchema } from '../kernel/index.ts';
import { chaosBinaryProblems } from './chaos-binary-rules.ts';
import {
  CHAOS_ACTIONS,
  chaosStepProblems,
  chaosTopologyProblems,
  NETWORK_FAULTS,
  NETWORK_LINKS,
  SERVER_SERVICES,
  VERSIONING_BEHAVIORS,
} from './chaos-step-rules.ts';
import { closestName } from './closest-name.ts';
import { compareSchema } from './compare-schema.ts';
import { externalTargetSchema, foreignBinaryNameSchema } from './external-target.ts';
import { rampSchemaWith, soakSchemaWith } from './soak-schema.ts';

/** "90s", "10m", "1h", "500ms" or a number of milliseconds. */
export const durationSchema = z
  .union([z.number().int().positive(), z.string().regex(/^\d+(\.\d+)?(ms|s|m|h)$/, 'a duration like 500ms, 90s, 10m or 1h')])
  .describe('a duration like 500ms, 90s, 10m or 1h, or a number of milliseconds');

export function durationMs(value: z.infer<typeof durationSchema>): number {
  if (typeof value === 'number') return value;
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(value);
  if (!match) throw new Error(`not a duration: ${value}`);
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[match[2] as 'ms' | 's' | 'm' | 'h'];
  return Math.round(Number(match[1]) * unit);
}

/**
 * A run's timeout, a soak's length: of no time at all, a run would be refused at once and no run
 * started. A number is already positive; a string that is a duration must come to 1 ms at least.
 */
const positiveDurationSchema = durationSchema.refine(
  (value) => typeof value !== 'string' || !/^\d+(\.\d+)?(ms|s|m|h)$/.test(value) || durationMs(value) >= 1,
  'expected a duration above zero',
);

/**
 * The mocks' schemas, so the type and the JSON Schema are theirs; a mapping is checked first by
 * the mocks' own parser, which words the errors and also judges the shape merged with its
 * defaults (turns.min <= turns.max). The annotation gives the field its input type: zod hands
 * over the raw value, which the parser checks.
 */
const shapeSchema = z.preprocess((value: RunShapeInput, ctx) => {
  if (isMapping(value)) checkWith(() => resolveShape(value), 'shape', ctx);
  return value;
}, runShapeInputSchema);

const faultsSchema = z.preprocess((value: FaultProfile, ctx) => {
  if (isMapping(value)) checkWith(() => parseFaultProfile(value), 'faults', ctx);
  return value;
}, faultProfileSchema);

/** Anything else is left to the schema, which says "expected a mapping". */
function isMapping(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkWith(parse: () => unknown, root: string, ctx: z.RefinementCtx): void {
  try {
    parse();
  } catch (error) {
    const message = (error as Error).message;
    // The mocks' parsers say "root.a.b: message": keep the path so the error can name the line.
    const match = new RegExp(`^${root}((?:\\.[^:\\s]+)*): (.*)$`).exec(message);
    const path = match?.[1] ? match[1].slice(1).split('.') : [];
    ctx.addIssue({ code: 'custom', message: match?.[2] ?? message, path: path.map((p) => (/^\d+$/.test(p) ? Number(p) : p)) });
  }
}

const targetSchema = z.union([
  z.strictObject({
    /** Kernel binaries to run the scenario on; every run is made on each. */
    binaries: z.array(binaryIdSchema).min(1),
  }),
  z.strictObject({
    /** A worker longrun did not write (black box): its binaries' commands, how to read its histories. */
    external: externalTargetSchema,
  }),
]);

const limitsSchema = z.strictObject({
  blobLimitBytes: z.number().int().positive().optional(),
  compactionTriggerBytes: z.number().int().positive().optional(),
  continueAsNewBytes: z.number().int().positive().optional(),
  cardMaxBytes: z.number().int().positive().optional(),
  tailMaxBytes: z.number().int().positive().optional(),
});

const runsSchema = z
  .strictObject({
    /** Runs per binary (closed model: `concurrency` at once). */
    count: z.number().int().positive().default(1),
    concurrency: z.number().int().positive().default(1),
    /** Open model: runs started per second, instead of a fixed concurrency. */
    arrivalRate: z.number().positive().optional(),
    /** Open model on a ramp of arrival rates (replaces arrivalRate and duration). */
    ramp: rampSchemaWith(durationSchema).optional(),
    /** Keep starting runs for this long (soak); `count` then caps nothing. */
    duration: positiveDurationSchema.optional(),
    maxTurns: z.number().int().positive().default(200),
    /** A run still open after this is stopped and reported as such. */
    timeout: positiveDurationSchema.default('2m'),
  })
  .default({ count: 1, concurrency: 1, maxTurns: 200, timeout: '2m' });

/** How a run's last execution can close, as an `ends` expectation names it (the summary's `outcome`). */
export const RUN_ENDINGS = ['completed', 'failed', 'terminated', 'timed-out', 'canceled'] as const;
export type RunEnding = (typeof RUN_ENDINGS)[number];

/**
 * Where the histories of a binary's runs must replay and where they must fail, binary by binary.
 * Whatever is stated, a release (a binary that is not a broken control) must replay every history
 * it is given: its failure is never absorbed by another expectation, a control's among them.
 */
const replayExpectationSchema = z
  .strictObject({
    on: z
      .array(binaryNameSchema)
      .default([])
      .describe("binaries on which every run's histories must be replayed, and replay identically (default: none named)"),
    failsOn: z
      .array(binaryNameSchema)
      .default([])
      .describe(
        'binaries on which the histories must fail to replay: a nondeterminism in at least one run on each (a broken control caught); default none, so no failure is expected anywhere',
      ),
  })
  .superRefine((replay, ctx) => {
    if (replay.on.length + replay.failsOn.length === 0)
      ctx.addIssue({ code: 'custom', message: 'names no binary: give on, failsOn or both' });
    for (const name of replay.failsOn.filter((name) => replay.on.includes(name))) {
      ctx.addIssue({ code: 'custom', path: ['failsOn'], message: `${name} is also in on: a history cannot both replay and fail there` });
    }
  })
  .describe(
    "where the histories of the binary's runs must replay (on) and where they must fail (failsOn); a release's failure to replay is never absorbed, stated or not",
  );

/** An incident, or an incident at the turn it must break at: what `longrun scenario from-history` writes. */
const reproducesSchema = z
  .union([
    z.enum(INCIDENTS),
    z.strictObject({
      incident: z.enum(INCIDENTS),
      atTurn: z
        .number()
        .int()
        .positive()
        .describe('a turn number: the one the run breaks at (its model call under way or due when the limit broke it)'),
      within: z
        .number()
        .int()
        .min(0)
        .default(0)
        .describe('a number of turns either side of atTurn that still count (default 0: that turn only)'),
    }),
  ])
  .describe('the incident some run shows; as { incident, atTurn, within }, some run breaks on it at that turn, within the tolerance');
export type Reproduces = z.infer<typeof reproducesSchema>;

/** The incident a `reproduces` names, in either form. */
export function incidentOf(reproduces: Reproduces): Incident {
  return typeof reproduces === 'string' ? reproduces : reproduces.incident;
}

const expectationSchema = z.union([
  z.strictObject({
    on: binaryNameSchema,
    /** Every listed invariant (or all) holds on every run. */
    hold: z.union([z.literal('all'), z.array(z.enum(INVARIANT_IDS)).min(1)]),
  }),
  z.strictObject({
    on: binaryNameSchema,
    /** At least one run shows the incident (at the turn given, within the tolerance). */
    reproduces: reproducesSchema,
  }),
  z.strictObject({
    on: binaryNameSchema,
    /** At least one run violates each listed invariant (a broken control is caught). */
    violates: z.array(z.enum(INVARIANT_IDS)).min(1),
  }),
  z.strictObject({
    on: binaryNameSchema,
    /**
     * Every run's last execution closes this way: `completed` where no fault may end a run (a
     * kernel that ends every run at once, for a reason the contract names, holds every invariant).
     */
    ends: z.enum(RUN_ENDINGS),
  }),
  z.strictObject({
    on: binaryNameSchema,
    /** Its runs' histories replay on some binaries and fail on others (a control caught). */
    replay: replayExpectationSchema,
  }),
]);

/** A kernel binary, or a foreign target's (checked against the target with the scenario: chaos-binary-rules.ts). */
const chaosBinarySchema: z.ZodType<BinaryName> = z.union([binaryIdSchema, foreignBinaryNameSchema]);

/** A fault the harness injects while runs go on (src/chaos); which fields apply to which action: chaos-step-rules.ts. */
const chaosStepSchema = z
  .strictObject({
    action: z
      .enum(CHAOS_ACTIONS)
      .describe(
        'kill-worker (SIGKILL, restart), upgrade-worker (rolling, to a binary), restart-server, network (Toxiproxy), force-replay, restart-database (PostgreSQL), delete-stored (objects of External Storage), restart-service (SIGKILL one service of server.topology services, restart)',
      ),
    after: durationSchema.optional().describe('strike once, this long after the first run starts'),
    atTurn: z.number().int().positive().optional().describe('strike once, when any run starts this turn'),
    probability: z.number().gt(0).max(1).optional().describe('strike at the start of each turn of each run with this probability (seeded)'),
    times: z.number().int().positive().optional().describe('with probability: strike at most this many times (default 1)'),
    binary: chaosBinarySchema.optional().describe('kill-worker, upgrade-worker: the task queue of this binary (default: every one)'),
    to: chaosBinarySchema
      .optional()
      .describe('upgrade-worker: the binary that takes over; kill-worker: the binary it restarts as (default: the same)'),
    part: z
      .enum(['workflows', 'activities', 'both'])
      .optional()
      .describe(
        'kill-worker: the workflow worker (default), the activity worker (its activities in flight wait for their timeouts) or both',
      ),
    overlap: durationSchema.optional().describe('upgrade-worker: how long old and new workers serve side by side (default 2s)'),
    versioning: z
      .enum(VERSIONING_BEHAVIORS)
      .optional()
      .describe(
        'upgrade-worker by Worker Versioning instead of a rolling replacement: the workers of its queue poll as deployment versions (build id: their binary), the runs start on the old current version, the strike moves the current version to `to`, and the old workers serve until no run on their version is open. pinned: a run stays on its build to its end or its ContinueAsNew (which the kernel makes with AUTO_UPGRADE); auto-upgrade: runs move at their next workflow task',
      ),
    downFor: durationSchema
      .optional()
      .describe('restart-server, restart-database, restart-service: how long the server, database or service stays down (default 1s)'),
    service: z
      .enum(SERVER_SERVICES)
      .optional()
      .describe('restart-service: the service to kill and restart: history, matching, frontend or worker'),
    link: z
      .enum(NETWORK_LINKS)
      .optional()
      .describe(
        'network: worker-temporal (gRPC to the frontend), activities-model (HTTP to the model), temporal-postgres (the server to its PostgreSQL, server.persistence postgres) or workers-store (the workers to the S3 store of External Storage, a binary that offloads)',
      ),
    fault: z
      .enum(NETWORK_FAULTS)
      .optional()
      .describe('network: latency, bandwidth, timeout (data stops, then the connection closes), reset_peer, down'),
    for: durationSchema.optional().describe('network: how long the fault lasts'),
    latencyMs: z.number().int().positive().optional().describe('latency: added delay, ms'),
    jitterMs: z.number().int().min(0).optional().describe('latency: plus or minus, ms'),
    rateKBps: z.number().int().positive().optional().describe('bandwidth: KB per second'),
    timeoutMs: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('timeout: ms before the connection closes (0: never); reset_peer: ms before the reset'),
    objects: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('delete-stored: how many objects of External Storage to delete, in key order (default: every one stored so far)'),
    stream: z.enum(['upstream', 'downstream']).optional().describe('network: the direction (default downstream, server to client)'),
    toxicity: z.number().min(0).max(1).optional().describe('network: share of connections affected (default 1)'),
  })
  .superRefine((step, ctx) => {
    for (const problem of chaosStepProblems(step)) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  });

export const scenarioSchema = z
  .strictObject({
    $schema: z.string().optional(),
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and dashes'),
    description: z.string().default(''),
    /** The generator's seeds are 32-bit (planRun). */
    seed: z.number().int().min(0).max(0xffff_ffff),
    target: targetSchema.default({ binaries: ['v1'] }),
    /** The embedded server: dynamic config over the production-like defaults, and where it keeps its data. */
    server: z
      .strictObject({
        dynamicConfig: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
        database: z
          .enum(['memory', 'file'])
          .default('memory')
          .describe(
            "memory (default), or file: a temporary SQLite file, so the server's RSS is the server's and not every history it stores (soaks)",
          ),
        persistence: z
          .enum(['sqlite-memory', 'sqlite-file', 'postgres'])
          .optional()
          .describe(
            'overrides database: sqlite-memory, sqlite-file, or postgres: a throwaway PostgreSQL cluster longrun starts and removes (the persistence production runs on; needs postgresql-15)',
          ),
        topology: z
          .enum(['single', 'services'])
          .default('single')
          .describe(
            'single (default): every service in one process; services: frontend, history, matching and worker as four processes on loopback, as production runs them (needs persistence postgres)',
          ),
      })
      .superRefine((server, ctx) => {
        if (server.topology === 'services' && server.persistence !== 'postgres') {
          ctx.addIssue({ code: 'custom', path: ['topology'], message: 'services share one store: set server.persistence to postgres' });
        }
      })
      .default({ dynamicConfig: {}, database: 'memory', topology: 'single' }),
    /** The kernel's thresholds for these runs (RunInput.limits), scaled down to reproduce in seconds. */
    limits: limitsSchema.default({}),
    runs: runsSchema,
    shape: shapeSchema.default({}),
    faults: faultsSchema.default({}),
    /** Soak thresholds: each one stated becomes an expectation (turns/s, p99 latency, RSS growth). */
    soak: soakSchemaWith(durationSchema).optional(),
    compare: compareSchema.optional(),
    chaos: z.array(chaosStepSchema).default([]),
    expect: z.array(expectationSchema).min(1),
  })
  .superRefine(
    (parsed, ctx) => {
      const scenario = (parsed ?? {}) as Partial<typeof parsed>;
      // Which names an expectation may use depends on the target: ours, or the foreign binaries it lists.
      // It runs beside the scenario's other problems (`when`), so it reads what may be only partly valid.
      const target = scenario.target as Partial<Scenario['target']> | undefined;
      const external = target && 'external' in target ? target.external : undefined;
      const known: readonly string[] = external ? Object.keys(external.binaries ?? {}) : BINARY_IDS;
      (Array.isArray(scenario.expect) ? scenario.expect : []).forEach((expectation, i) => {
        for (const { name, path } of namedBinaries(expectation)) {
          if (known.includes(name)) continue;
          const guess = closestName(name, known);
          ctx.addIssue({
            code: 'custom',
            path: ['expect', i, ...path],
            message: `expected one of ${known.join(', ')}${guess ? `; did you mean ${guess}?` : ''}`,
          });
        }
      });
      for (const problem of chaosBinaryProblems(scenario.chaos, external)) ctx.addIssue({ code: 'custom', ...problem });
      for (const problem of chaosTopologyProblems(scenario.chaos, scenario.server?.topology)) ctx.addIssue({ code: 'custom', ...problem });
    },
    { when: ({ value }) => typeof value === 'object' && value !== null },
  );

/** The binaries an expectation names (`on`, and a replay block's `on` and `failsOn`), each with its path; read from what may be only partly valid. */
function namedBinaries(expectation: unknown): { name: string; path: (string | number)[] }[] {
  if (!isMapping(expectation)) return [];
  const { on, replay } = expectation as { on?: unknown; replay?: unknown };
  const named = typeof on === 'string' ? [{ name: on, path: ['on'] as (string | number)[] }] : [];
  if (!isMapping(replay)) return named;
  for (const key of ['on', 'failsOn'] as const) {
    const list = (replay as Record<string, unknown>)[key];
    if (!Array.isArray(list)) continue;
    list.forEach((name, j) => {
      if (typeof name === 'string') named.push({ name, path: ['replay', key, j] });
    });
  }
  return named;
}

export type Scenario = z.infer<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioSchema>;
export type Expectation = z.infer<typeof expectationSchema>;
export type ReplayExpectation = Extract<Expectation, { replay: unknown }>;
export type ChaosStep = z.infer<typeof chaosStepSchema>;
