/**
 * `longrun replay --scenario FILE --binary B`: the replayer a scenario gives one of its foreign
 * binaries (`target.external.binaries.B.replay`), its folder resolved against the scenario
 * file's as the runner resolves it (external-harness.ts), with the target's build to run first.
 */
import type { ForeignCommand } from '../../chaos/foreign-command.ts';
import { externalSetup } from '../../runner/external-harness.ts';
import type { ForeignCommandInput } from '../../scenario/external-target.ts';
import { resolveScenario } from '../../scenario/index.ts';
import { UsageError } from '../usage-error.ts';

export interface ScenarioReplayer {
  command: ForeignCommand;
  /** The target's build command, run first as the runner runs it. */
  build?: ForeignCommandInput;
  scenarioFile: string;
}

/** The scenario's replayer of `binary`; an unknown binary, or one with no replayer, is a one-line usage error. */
export function scenarioReplayer(nameOrPath: string, binary: string): ScenarioReplayer {
  const { scenario, file } = resolveScenario(nameOrPath);
  if (!('external' in scenario.target)) {
    throw new UsageError(
      `--scenario ${nameOrPath}: its target is longrun's own kernel, not target.external; replay on a kernel binary with --binary alone`,
    );
  }
  const target = scenario.target.external;
  const binaries = Object.keys(target.binaries);
  const found = externalSetup(target, file).commands.get(binary);
  if (!found) throw new UsageError(`--binary ${binary}: scenario ${file} has no binary ${binary} (its binaries: ${binaries.join(', ')})`);
  if (!found.replay) {
    const replayable = binaries.filter((name) => target.binaries[name]?.replay !== undefined);
    throw new UsageError(
      `--binary ${binary}: scenario ${file} gives ${binary} no replayer (target.external.binaries.${binary}.replay)${replayable.length > 0 ? `; those with one: ${replayable.join(', ')}` : ''}`,
    );
  }
  return { command: found.replay, ...(target.build ? { build: target.build } : {}), scenarioFile: file };
}
