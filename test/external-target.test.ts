/**
 * The black box: scenarios whose target is a worker longrun did not write, here the Go reference
 * kernel (examples/go-kernel) on the Go SDK. longrun builds it, starts a worker per binary,
 * drives and judges its runs through its mapping and replays them with its own replayer, with
 * the expectations the TypeScript kernel's scenarios state; and a foreign worker or build that
 * fails is one line naming its command, with nothing left running.
 */
import { describe, expect, it } from 'vitest';
import { processesRunning } from '../src/chaos/testing/processes.ts';
import { resolveScenario, runScenario, type Scenario, scenarioSchema } from '../src/index.ts';
import { ExternalTargetError } from '../src/runner/external-harness.ts';

async function run(name: string) {
  const { scenario, file } = resolveScenario(name);
  return runScenario(scenario, { scenarioFile: file });
}

const evidenceOf = (summary: Awaited<ReturnType<typeof run>>, binary: string) =>
  summary.runs.filter((r) => r.binary === binary).flatMap((r) => r.invariants.find((i) => i.id === 'replay.cross-version')?.evidence ?? []);

describe('a Go kernel under longrun', () => {
  it('go-smoke: go-v1 compacts, continues as new and holds every invariant, replayed by its own replayer', async () => {
    const summary = await run('go-smoke');
    expect(summary.expectations.filter((e) => !e.met)).toEqual([]);
    expect(summary.passed).toBe(true);
    expect(summary.runs.map((r) => r.binary)).toEqual(['go-v1', 'go-v1']);
    expect(summary.runs.every((r) => r.executions.length > 1 && r.compactions.length > 0)).toBe(true);
    expect(evidenceOf(summary, 'go-v1')).toEqual(['replayed on go-v1: identical', 'replayed on go-v1: identical']);
    // The first scenario runs the target's `go build`: about two minutes on a cold Go build cache.
  }, 400_000);

  it('go-tmprl1103: go-v0 reproduces the incident, go-v1 holds', async () => {
    const summary = await run('go-tmprl1103');
    expect(summary.expectations.filter((e) => !e.met)).toEqual([]);
    expect(summary.runs.filter((r) => r.binary === 'go-v0').every((r) => r.incidents.includes('tmprl1103'))).toBe(true);
  });

  it('go-cross-version-replay: go-v0 histories replay on go-v1, and the ungated control is caught by the Go replayer', async () => {
    const summary = await run('go-cross-version-replay');
    expect(summary.expectations.filter((e) => !e.met)).toEqual([]);
    const v0 = evidenceOf(summary, 'go-v0');
    expect(v0.filter((line) => line === 'replayed on go-v1: identical')).toHaveLength(2);
    expect(v0.filter((line) => /^replayed on go-ungated: go-kernel replay: .*does not replay on ungated/.test(line))).toHaveLength(2);
  });
});

describe('a foreign target that cannot run', () => {
  const target = (worker: string[], build?: string[]): Scenario =>
    scenarioSchema.parse({
      name: 'broken-target',
      seed: 1,
      target: { external: { ...(build ? { build: { argv: build } } : {}), binaries: { 'go-v1': { worker: { argv: worker } } } } },
      expect: [{ on: 'go-v1', hold: 'all' }],
    });

  it('a worker that will not start is one line naming its command, and nothing of it is left running', async () => {
    const marker = 'no-such-worker-7f3a';
    const started = Date.now();
    const error = await runScenario(target([marker, '--binary', 'v1'])).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ExternalTargetError);
    const command = `\`${marker} --binary v1\` in ${process.cwd()}`;
    expect((error as Error).message.replace(/after \d+(\.\d)? s/, 'after N s')).toBe(
      `foreign worker go-v1 (${command}) exited with code 127 after N s: could not start ${command}: ENOENT`,
    );
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(processesRunning(marker)).toEqual([]);
  });

  it('a build that fails is one line naming it, before any server starts', async () => {
    await expect(runScenario(target(['true'], ['sh', '-c', 'echo "go: cannot find main module" >&2; exit 1']))).rejects.toThrow(
      /^target\.external\.build `sh -c .*` in .* failed \(1\): go: cannot find main module$/,
    );
  });
});
