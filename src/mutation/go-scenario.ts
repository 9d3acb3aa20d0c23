/**
 * A go-* scenario pointed at a mutated copy of the Go kernel: every binary's worker and replay
 * commands run in `dir`, and its build is left out (the mutant is built once, before its first
 * scenario).
 */
import type { Scenario } from '../scenario/scenario-schema.ts';

export function kernelScenario(scenario: Scenario, dir: string): Scenario {
  if (!('external' in scenario.target)) throw new Error(`${scenario.name} has no foreign target`);
  const { build: _built, ...external } = scenario.target.external;
  const inDir = <C extends { cwd?: string }>(command: C): C => ({ ...command, cwd: dir });
  const binaries = Object.fromEntries(
    Object.entries(external.binaries).map(([name, binary]) => [
      name,
      { ...binary, worker: inDir(binary.worker), ...(binary.replay ? { replay: inDir(binary.replay) } : {}) },
    ]),
  );
  return { ...scenario, target: { external: { ...external, mapping: `${dir}/mapping.json`, binaries } } };
}
