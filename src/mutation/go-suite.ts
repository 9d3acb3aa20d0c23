/**
 * The scenarios `npm run mutation:go` runs against each mutant: the go-* scenarios by name, and
 * `go-<name>`, a Go twin of a detection scenario (detection-suite.ts: `go-detect-guard`,
 * `go-bounds-small-groups`) that no go-* scenario matches: its shape, limits and server on go-v1
 * (go-smoke's target), its expectations on v1 moved to go-v1. A twin's runs have ids of their
 * own, so its plan is not its original's: limits at the original's exact bytes bite only by chance.
 */
import { resolveScenario } from '../scenario/registry.ts';
import type { Scenario } from '../scenario/scenario-schema.ts';
import { DETECTION_SCENARIOS } from './detection-suite.ts';

/** Fastest first, each catching what the ones before it miss. */
export const DEFAULT_SCENARIOS = [
  'go-smoke',
  'go-detect-guard',
  'go-bounds',
  'go-tail-outputs',
  'go-detect-guard-gives-up',
  'go-detect-compaction-input',
  'go-bounds-small-groups',
  'go-bounds-long-texts',
  'go-cross-version-replay',
  'go-history-size',
  'go-compaction-failure',
  'go-tmprl1103',
];

export function goSuiteScenario(name: string): { scenario: Scenario; file: string } {
  const twin = DETECTION_SCENARIOS.find((s) => `go-${s.name}` === name);
  if (!twin) return resolveScenario(name);
  const { scenario: smoke, file } = resolveScenario('go-smoke');
  const expect = twin.expect.filter((e) => e.on === 'v1').map((e) => ({ ...e, on: 'go-v1' }));
  return { scenario: { ...twin, name, target: smoke.target, expect }, file };
}
