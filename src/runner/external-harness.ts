/**
 * The harness of a foreign target (`target.external`): the server, the mocks over HTTP (a worker
 * in another process, in any language, calls them there), the target's build command once, and
 * one foreign worker per binary that starts runs, on its own task queue, each ready once the
 * server sees it poll; chaos steps strike them. Commands and the mapping file are read relative
 * to the scenario file's folder.
 */
import { dirname, resolve } from 'node:path';
import { describeCommand, type ForeignCommand, lastMeaningfulLine, runForeignCommand } from '../chaos/foreign-command.ts';
import { type ChaosEvent, planChaos } from '../chaos/index.ts';
import { DEFAULT_KERNEL_MAPPING, type KernelMapping, readKernelMappingFile } from '../checks/index.ts';
import type { Environment } from '../environment/index.ts';
import type { BinaryName } from '../kernel/index.ts';
import { type ExternalTarget, type ForeignCommandInput, launchedBinaries } from '../scenario/external-target.ts';
import type { Scenario } from '../scenario/scenario-schema.ts';
import { type RunHarness, startChaosHarness } from './run-harness.ts';

/** A build (a `go build` of a cold cache) may take minutes; one that takes ten is stuck. */
const BUILD_TIMEOUT_MS = 600_000;

/** A foreign target could not be set up: its build, its mapping file or a worker. A broken setup, not a verdict. */
export class ExternalTargetError extends Error {}

export interface ExternalSetup {
  /** The mapping its histories are read through (the contract's, when the target names none). */
  mapping: KernelMapping;
  /** Every binary's commands, with their folders resolved, in release order. */
  commands: Map<BinaryName, { worker: ForeignCommand; replay?: ForeignCommand; breaks?: string }>;
  /** The binaries runs start on (the others join only through chaos). */
  launched: BinaryName[];
}

/** The folder a scenario's paths are relative to: its file's, or the working directory. */
function scenarioDir(scenarioFile: string | undefined): string {
  return scenarioFile ? dirname(resolve(scenarioFile)) : process.cwd();
}

/** A scenario's command with its folder resolved against the scenario file's. */
function commandOf(input: ForeignCommandInput, baseDir: string): ForeignCommand {
  return { argv: input.argv, cwd: resolve(baseDir, input.cwd ?? '.'), ...(input.env ? { env: input.env } : {}) };
}

export function externalSetup(target: ExternalTarget, scenarioFile: string | undefined): ExternalSetup {
  const baseDir = scenarioDir(scenarioFile);
  let mapping = DEFAULT_KERNEL_MAPPING;
  if (target.mapping) {
    try {
      mapping = readKernelMappingFile(resolve(baseDir, target.mapping));
    } catch (error) {
      throw new ExternalTargetError(`target.external.mapping ${(error as Error).message}`);
    }
  }
  // The workflow type the runs start is the one its histories are read by.
  mapping = { ...mapping, workflowType: target.workflowType };
  const commands = new Map(
    Object.entries(target.binaries).map(([name, binary]) => [
      name,
      {
        worker: commandOf(binary.worker, baseDir),
        ...(binary.replay ? { replay: commandOf(binary.replay, baseDir) } : {}),
        ...(binary.breaks ? { breaks: binary.breaks } : {}),
      },
    ]),
  );
  return { mapping, commands, launched: launchedBinaries(target) };
}

/** Runs the target's build command once; its output is shown, a failure is one line naming it. */
export async function buildTarget(build: ForeignCommandInput | undefined, scenarioFile: string | undefined): Promise<void> {
  if (!build) return;
  const command = commandOf(build, scenarioDir(scenarioFile));
  process.stderr.write(`longrun: building the target: ${describeCommand(command)}\n`);
  const { code, stderr, failure } = await runForeignCommand(command, [], BUILD_TIMEOUT_MS);
  if (code === 0) return;
  const said = lastMeaningfulLine(stderr);
  const why = failure ?? `failed (${code})${said ? `: ${said}` : ''}`;
  throw new ExternalTargetError(`target.external.build ${describeCommand(command)} ${why}`);
}

/**
 * The target's build, then its workers under the chaos harness (worker-pool.ts with foreign
 * workers): its chaos steps strike them as they strike the kernel's; without steps, the workers
 * just serve their queues.
 */
export async function startExternalHarness(
  scenario: Scenario,
  target: ExternalTarget,
  setup: ExternalSetup,
  queuePrefix: string,
  options: { environment?: Environment; scenarioFile?: string; onChaosEvent?: (event: ChaosEvent) => void },
): Promise<RunHarness> {
  await buildTarget(target.build, options.scenarioFile);
  try {
    return await startChaosHarness(scenario, planChaos(scenario), queuePrefix, {
      foreign: new Map([...setup.commands].map(([name, { worker }]) => [name, worker])),
      ...(options.environment ? { environment: options.environment } : {}),
      ...(options.onChaosEvent ? { onEvent: options.onChaosEvent } : {}),
    });
  } catch (error) {
    throw error instanceof Error && error.message.startsWith('foreign worker') ? new ExternalTargetError(error.message) : error;
  }
}
