import { describe, expect, it } from 'vitest';
import { resolveScenario } from '../scenario/registry.ts';
import { applyMutant, codeOf, mutantsOf, mutantsOfLine } from './go-operators.ts';
import { parseMutateRanges } from './go-ranges.ts';
import { kernelScenario } from './go-scenario.ts';

const changes = (line: string) => mutantsOfLine('f.go', 1, line).map((m) => `${m.operator} ${m.original} -> ${m.replacement}`);

describe('the Go mutation operators', () => {
  it('blank strings and comments, so nothing in them is mutated', () => {
    expect(codeOf('x := "a < b" // c > d')).toBe('x := "     "'.padEnd(21));
    expect(changes('\tmessage := fmt.Sprintf("%s is %d bytes", what, 1+2) // 3 > 2')).toEqual([
      'arithmetic + -> -',
      'constant-off-by-one 1 -> 2',
      'constant-off-by-one 1 -> 0',
      'constant-off-by-one 2 -> 3',
      'constant-off-by-one 2 -> 1',
    ]);
  });

  it('move a conditional boundary and negate it, and swap && for ||', () => {
    expect(changes('\treturn r.executionRequestBytes > r.limits.ContinueAsNewBytes && r.gateOpen()')).toEqual([
      'conditional-boundary > -> >=',
      'negated-conditional > -> <=',
      'logical && -> ||',
    ]);
    expect(changes('\tif requestBytes <= r.limits.CompactionTriggerBytes {')).toEqual([
      'conditional-boundary <= -> <',
      'negated-conditional <= -> >',
    ]);
  });

  it('flip increments and compound assignments, and remove the statement', () => {
    expect(changes('\tr.boundariesOverTrigger++')).toEqual(['increment ++ -> --', 'statement-removed r.boundariesOverTrigger++ -> ']);
    expect(changes('\t\tr.executionRequestBytes += bytes')).toEqual([
      'assignment-arithmetic += -> -=',
      'statement-removed r.executionRequestBytes += bytes -> ',
    ]);
  });

  it('leave channel receives, declarations and a multi-line literal alone', () => {
    expect(changes('\tv := <-ch')).toEqual([]);
    expect(changes('func (r *agentRun) budgetSpent() bool {')).toEqual([]);
    expect(changes('\t\trun.messages = []Message{')).toEqual([]);
  });

  it("raise GetVersion's oldest and newest supported versions, the call's arguments left to those two", () => {
    const line = '\treturn workflow.GetVersion(r.ctx, compactionChangeID, workflow.DefaultVersion, 1) == 1';
    const mutants = mutantsOfLine('workflow.go', 149, line);
    expect(mutants.slice(0, 2).map((m) => applyMutant(line, { ...m, line: 1 }))).toEqual([
      '\treturn workflow.GetVersion(r.ctx, compactionChangeID, 1, 1) == 1',
      '\treturn workflow.GetVersion(r.ctx, compactionChangeID, workflow.DefaultVersion, 2) == 1',
    ]);
    // The `== 1` after the call is still mutated; the call's own `1` only by getversion-max.
    expect(mutants.slice(2).map((m) => `${m.operator} ${m.column}`)).toEqual([
      'negated-conditional 84',
      'constant-off-by-one 87',
      'constant-off-by-one 87',
    ]);
  });

  it('are the same for the same source, and apply to the line they name only', () => {
    const source = 'package main\n\nfunc f(a, b int) bool {\n\treturn a < b\n}\n';
    const first = mutantsOf('f.go', source, { from: 1, to: 5 });
    expect(mutantsOf('f.go', source, { from: 1, to: 5 })).toEqual(first);
    expect(first.map((m) => m.id)).toEqual(['f.go:4:11:conditional-boundary', 'f.go:4:11:negated-conditional']);
    expect(applyMutant(source, first[0] as (typeof first)[0])).toBe('package main\n\nfunc f(a, b int) bool {\n\treturn a <= b\n}\n');
    expect(applyMutant(source, { ...(first[0] as (typeof first)[0]), operator: 'statement-removed', original: '<' })).toContain(
      '// removed: <',
    );
    expect(() => applyMutant(source.replace('a < b', 'a == b'), first[0] as (typeof first)[0])).toThrow(/f.go:4:11 no longer holds "<"/);
  });
});

describe('--mutate', () => {
  it('reads files, lines and ranges, and names a bad one', () => {
    expect(parseMutateRanges('workflow.go:171-177,context.go:405,jsjson.go')).toEqual([
      { file: 'workflow.go', from: 171, to: 177 },
      { file: 'context.go', from: 405, to: 405 },
      { file: 'jsjson.go', from: 1, to: Number.MAX_SAFE_INTEGER },
    ]);
    expect(() => parseMutateRanges('workflow.ts:1')).toThrow('--mutate workflow.ts:1: expected file.go, file.go:line or file.go:from-to');
    expect(() => parseMutateRanges('workflow.go:9-3')).toThrow('--mutate workflow.go:9-3: the range ends before it starts');
  });
});

describe('a go-* scenario on a mutant', () => {
  it("runs every binary's worker and replayer in the mutant's folder, and leaves the build to the run", () => {
    const { scenario } = resolveScenario('go-cross-version-replay');
    const moved = kernelScenario(scenario, '/tmp/mutant');
    if (!('external' in moved.target)) throw new Error('no foreign target');
    expect(moved.target.external.build).toBeUndefined();
    expect(moved.target.external.mapping).toBe('/tmp/mutant/mapping.json');
    const cwds = Object.values(moved.target.external.binaries).flatMap((b) => [b.worker.cwd, b.replay?.cwd]);
    expect(new Set(cwds)).toEqual(new Set(['/tmp/mutant']));
    expect(Object.keys(moved.target.external.binaries)).toEqual(['go-v0', 'go-v1', 'go-ungated']);
  });
});
