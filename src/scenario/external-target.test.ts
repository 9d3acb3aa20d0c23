import { describe, expect, it } from 'vitest';
import { externalTargetSchema, launchedBinaries } from './external-target.ts';
import { scenarioSchema } from './scenario-schema.ts';

const worker = (binary: string) => ({ argv: ['./go-kernel', 'worker', '--binary', binary] });

describe('target.external', () => {
  it('keeps the binaries in the order written, the release order', () => {
    const target = externalTargetSchema.parse({
      binaries: {
        'go-v0': { worker: worker('v0') },
        'go-v1': { worker: worker('v1') },
        'go-ungated': { worker: worker('ungated'), breaks: 'go-v1' },
      },
    });
    expect(Object.keys(target.binaries)).toEqual(['go-v0', 'go-v1', 'go-ungated']);
    expect(target.workflowType).toBe('agentRun');
  });

  it('refuses a control that breaks no binary of the target, an empty target, and a command without a program', () => {
    const issues = (value: unknown) => externalTargetSchema.safeParse(value).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues({ binaries: { 'go-v1': { worker: worker('v1'), breaks: 'go-v9' } } })).toEqual([
      'binaries.go-v1.breaks: names no binary of this target (go-v1)',
    ]);
    expect(issues({ binaries: {} })).toEqual(['binaries: needs at least one binary']);
    expect(issues({ binaries: { 'go-v1': { worker: { argv: [] } } } })?.[0]).toMatch(/^binaries\.go-v1\.worker\.argv: /);
    expect(issues({ binaries: { 'Go V1': { worker: worker('v1') } } })?.[0]).toMatch(/^binaries\.Go V1: a name of lowercase letters/);
  });
});

describe('a scenario on a foreign target', () => {
  const scenario = (extra: Record<string, unknown>) => ({
    name: 'foreign',
    seed: 1,
    target: { external: { binaries: { 'go-v0': { worker: worker('v0') }, 'go-v1': { worker: worker('v1') } } } },
    expect: [{ on: 'go-v1', hold: 'all' }],
    ...extra,
  });
  const issues = (value: Record<string, unknown>, binaries?: Record<string, unknown>) =>
    scenarioSchema
      .safeParse(binaries ? { ...value, target: { external: { binaries } } } : value)
      .error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

  it('names its binaries in expectations, and refuses a name the target does not have', () => {
    expect(issues(scenario({}))).toBeUndefined();
    expect(issues(scenario({ expect: [{ on: 'go-v2', hold: 'all' }] }))).toEqual([
      'expect.0.on: expected one of go-v0, go-v1; did you mean go-v0?',
    ]);
    expect(issues(scenario({ expect: [{ on: 'v1', hold: 'all' }] }))?.[0]).toMatch(/^expect\.0\.on: expected one of go-v0, go-v1/);
  });

  it('takes chaos steps on its own binaries, and refuses what a foreign worker cannot be struck with', () => {
    const chaos = (...steps: Record<string, unknown>[]) => scenario({ chaos: steps });
    expect(
      issues(
        chaos(
          { action: 'kill-worker', after: '5s', part: 'both', to: 'go-v1' },
          { action: 'upgrade-worker', atTurn: 3, binary: 'go-v0', to: 'go-v1' },
          { action: 'force-replay' },
          { action: 'restart-server', atTurn: 4 },
          { action: 'network', atTurn: 2, link: 'activities-model', fault: 'down', for: '1s' },
        ),
      ),
    ).toBeUndefined();
    expect(issues(chaos({ action: 'upgrade-worker', atTurn: 3, to: 'v1' }))).toEqual(['chaos.0.to: expected one of go-v0, go-v1']);
    expect(issues(chaos({ action: 'kill-worker', atTurn: 3, binary: 'go-v2' }))).toEqual([
      'chaos.0.binary: expected one of go-v0, go-v1; did you mean go-v0?',
    ]);
    expect(issues(chaos({ action: 'kill-worker', atTurn: 3, part: 'activities' }))).toEqual([
      'chaos.0.part: a foreign worker runs its workflows and activities in one process: a kill takes both (leave part out, or both)',
    ]);
  });

  it('starts no runs on a binary only chaos brings in, and needs one that starts runs', () => {
    const binaries = { 'go-v0': { worker: worker('v0') }, 'go-v1': { worker: worker('v1'), startsRuns: false } };
    const parsed = scenarioSchema.parse({ ...scenario({}), target: { external: { binaries } } });
    expect('external' in parsed.target && launchedBinaries(parsed.target.external)).toEqual(['go-v0']);
    expect(issues(scenario({ chaos: [{ action: 'kill-worker', atTurn: 3, binary: 'go-v1' }] }), binaries)).toEqual([
      'chaos.0.binary: expected one of go-v0; did you mean go-v0?',
    ]);
    const none = { 'go-v0': { worker: worker('v0'), startsRuns: false } };
    expect(externalTargetSchema.safeParse({ binaries: none }).error?.issues.map((i) => i.message)).toEqual([
      'needs a binary that starts runs (startsRuns is false on every one)',
    ]);
  });
});
