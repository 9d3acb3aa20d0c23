/**
 * The black box: scenarios whose target is a worker longrun did not write, here the Go reference
 * kernel (examples/go-kernel) on the Go SDK. longrun builds it, starts a worker per binary,
 * drives and judges its runs through its mapping and replays them with its own replayer, with
 * the expectations the TypeScript kernel's scenarios state; and a foreign worker or build that
 * fails is one line naming its command, with nothing left running.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processesRunning } from '../src/chaos/testing/processes.ts';
import { resolveScenario, runScenario, type Scenario, scenarioSchema } from '../src/index.ts';
import { evaluateExpectations } from '../src/runner/expectations.ts';
import { ExternalTargetError } from '../src/runner/external-harness.ts';
import { unexplainedRuns } from '../src/runner/unexplained-runs.ts';
import type { Expectation } from '../src/scenario/index.ts';
import { packagePath } from '../src/shared/package-paths.ts';

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
    expect(
      summary.runs.filter((r) => r.binary === 'go-v0').map((r) => r.replays?.map((replay) => `${replay.on} ${replay.result}`)),
    ).toEqual([
      ['go-v0 identical', 'go-v1 identical', 'go-ungated nondeterministic'],
      ['go-v0 identical', 'go-v1 identical', 'go-ungated nondeterministic'],
    ]);
  });
});

/** The Go kernel's sources in a folder of their own, each slip's `from` replaced by its `to` in its file. */
function goKernelWith(...slips: [file: string, from: string, to: string][]): string {
  const source = packagePath('examples', 'go-kernel');
  const dir = mkdtempSync(join(tmpdir(), 'longrun-go-slip-'));
  for (const name of readdirSync(source).filter((n) => /\.go$|^go\.(mod|sum)$/.test(n) && !n.endsWith('_test.go'))) {
    copyFileSync(join(source, name), join(dir, name));
  }
  for (const [file, from, to] of slips) {
    const text = readFileSync(join(dir, file), 'utf8');
    if (!text.includes(from)) throw new Error(`${file} no longer holds ${from}`);
    writeFileSync(join(dir, file), text.replace(from, to));
  }
  return dir;
}

/** The scenario with its build and every binary's commands run in `dir` (a patched copy of the kernel). */
function builtIn(scenario: Scenario, dir: string): Scenario {
  if (!('external' in scenario.target)) throw new Error(`${scenario.name} has no foreign target`);
  const { external } = scenario.target;
  const inDir = <C extends { cwd?: string }>(command: C): C => ({ ...command, cwd: dir });
  const binaries = Object.fromEntries(
    Object.entries(external.binaries).map(([name, binary]) => [
      name,
      { ...binary, worker: inDir(binary.worker), ...(binary.replay ? { replay: inDir(binary.replay) } : {}) },
    ]),
  );
  return { ...scenario, target: { external: { ...external, ...(external.build ? { build: inDir(external.build) } : {}), binaries } } };
}

describe('a Go kernel whose go-v1 cannot replay go-v0 histories', () => {
  it("fails go-cross-version-replay: go-v1's slip is its own, not the ungated control's expected failure", async () => {
    // The oldest supported version raised to 1: a go-v0 history that reached the gate panics on go-v1 in replay.
    const dir = goKernelWith([
      'workflow.go',
      'workflow.GetVersion(r.ctx, compactionChangeID, workflow.DefaultVersion, 1)',
      'workflow.GetVersion(r.ctx, compactionChangeID, 1, 1)',
    ]);
    try {
      const { scenario, file } = resolveScenario('go-cross-version-replay');
      const summary = await runScenario(builtIn(scenario, dir), { scenarioFile: file });
      expect(summary.passed).toBe(false);
      // go-v1's own runs hold: only its replay of go-v0's histories shows the slip.
      const unmet = summary.expectations.filter((e) => !e.met);
      expect(unmet.map((e) => e.description)).toEqual([
        'on go-v0: its histories replay on go-v0, go-v1 and fail on go-ungated',
        'on go-v0: every invariant holds',
      ]);
      expect(unmet[0]?.detail).toMatch(
        /^not replayed identically on go-v1: \S+: replayed on go-v1: go-kernel replay: .*does not replay on v1/,
      );
      expect(unmet[1]?.detail).toMatch(/^violated: \S+: replay\.cross-version, \S+: replay\.cross-version$/);
      const v0 = summary.runs.filter((r) => r.binary === 'go-v0');
      expect(v0.map((r) => r.replays)).toEqual(
        v0.map(() => [
          { on: 'go-v0', result: 'identical', control: false },
          { on: 'go-v1', result: 'nondeterministic', control: false },
          { on: 'go-ungated', result: 'nondeterministic', control: true },
        ]),
      );
      // The expectations this scenario had before: the control is caught, and go-v1's slip lists the runs.
      const before: Expectation[] = [
        { on: 'go-v0', violates: ['replay.cross-version'] },
        { on: 'go-v1', hold: 'all' },
        { on: 'go-v1', ends: 'completed' },
        { on: 'go-ungated', hold: ['payload.ceiling', 'journal.chain', 'run.liveness'] },
      ];
      expect(evaluateExpectations(before, summary.runs).every((e) => e.met)).toBe(true);
      expect(unexplainedRuns(before, summary.runs).map((u) => [u.runId, u.why.split(': go-kernel')[0]])).toEqual(
        v0.map((r) => [r.runId, 'replay.cross-version: replayed on go-v1']),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 400_000);
});

/** go-bounds's limits against go-v1's own plan: the bytes each bound bites at, and what the kernel did there. */
function goBoundsBite(summary: Awaited<ReturnType<typeof run>>) {
  const [only] = summary.runs;
  const turns = only?.turns ?? [];
  const firstExecution = turns.filter((t) => t.execution === 1);
  const compacted = only?.compactions.find((c) => c.ok);
  return {
    firstSixRequests: firstExecution.slice(0, 6).reduce((sum, t) => sum + t.requestBytes, 0),
    turnsInFirstExecution: firstExecution.length,
    turn24Request: turns.find((t) => t.turn === 24)?.requestBytes,
    compactedAt: compacted?.turn,
    keptGroups: compacted?.kept,
  };
}

describe('go-bounds: the Go kernel at the exact bytes of its own plan', () => {
  const { scenario, file } = resolveScenario('go-bounds');
  const { continueAsNewBytes, compactionTriggerBytes } = scenario.limits;

  it('go-v1 holds with its budget, trigger and tail cap met to the byte', async () => {
    const summary = await runScenario(scenario, { scenarioFile: file });
    expect(summary.expectations.filter((e) => !e.met)).toEqual([]);
    // If the plan moves (the generator, the name, the shape), these name the bytes to set the limits to.
    expect(goBoundsBite(summary)).toEqual({
      firstSixRequests: continueAsNewBytes,
      turnsInFirstExecution: 7,
      turn24Request: compactionTriggerBytes,
      compactedAt: 25,
      keptGroups: 4,
    });
    const rebuild = summary.runs[0]?.invariants.find((i) => i.id === 'rebuild.contract');
    expect(rebuild?.evidence[0]).toMatch(/rebuilt with 4 turn groups, tail 6,375 bytes$/);
  }, 400_000);

  it('a go-v1 that spends its budget at exactly the budget and stops its tail at exactly the cap fails it', async () => {
    const dir = goKernelWith(
      ['workflow.go', 'r.executionRequestBytes > r.limits.ContinueAsNewBytes', 'r.executionRequestBytes >= r.limits.ContinueAsNewBytes'],
      ['context.go', 'bytes+groupBytes > tailMaxBytes', 'bytes+groupBytes >= tailMaxBytes'],
    );
    try {
      const summary = await runScenario(builtIn(scenario, dir), { scenarioFile: file });
      expect(summary.passed).toBe(false);
      const failed = summary.runs[0]?.invariants.filter((i) => i.status === 'fail');
      expect(failed?.map((i) => i.id)).toEqual(['history.continue-as-new', 'elision.minimal']);
      expect(failed?.[0]?.evidence[0]).toMatch(/ContinueAsNew after 82,734 request bytes, not over the budget 82,734$/);
      expect(failed?.[1]?.evidence[0]).toMatch(/the tail keeps 3 turn groups where 4 fit \(6,375 bytes <= tail max 6,375\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 400_000);
});

describe('go-tail-outputs: tool outputs past the tail cap on the Go kernel', () => {
  const { scenario, file } = resolveScenario('go-tail-outputs');

  it('go-v1 keeps two groups at every compaction and elides their tool outputs under the cap', async () => {
    const summary = await runScenario(scenario, { scenarioFile: file });
    expect(summary.expectations.filter((e) => !e.met)).toEqual([]);
    const [only] = summary.runs;
    expect(only?.compactions.map((c) => c.kept)).toEqual([2, 2, 2]);
    const elision = only?.invariants.find((i) => i.id === 'elision.minimal');
    expect(elision?.evidence).toEqual(['3 elisions judged, 6 items elided', '3 rebuilt tails judged']);
  }, 400_000);

  it('a go-v1 whose tail may not elide tool outputs fails it', async () => {
    const dir = goKernelWith([
      'context.go',
      'kindToolOutput: true, kindAssistantText: true}',
      'kindToolOutput: false, kindAssistantText: true}',
    ]);
    try {
      const summary = await runScenario(builtIn(scenario, dir), { scenarioFile: file });
      expect(summary.passed).toBe(false);
      const failed = summary.runs[0]?.invariants.filter((i) => i.status === 'fail');
      expect(failed?.map((i) => i.id)).toEqual(['rebuild.contract']);
      expect(failed?.[0]?.evidence[0]).toMatch(/the tail is [\d,]+ bytes > tail max 4,096/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 400_000);
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
