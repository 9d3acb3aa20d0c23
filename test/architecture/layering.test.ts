import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkLayering, parseLayerTable, readSources, repositoryRules } from './layering.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const sources = readSources(ROOT);
const rules = repositoryRules(ROOT);

/** The tree with one module's source changed (or added). */
function withSource(file: string, edit: (source: string) => string): Map<string, string> {
  const changed = new Map(sources);
  changed.set(file, edit(changed.get(file) ?? ''));
  return changed;
}

describe('the layering of docs/architecture.md', () => {
  it('holds for the whole tree', () => {
    expect(checkLayering(sources, rules)).toEqual([]);
  });

  it('fails on a forbidden import: the checks reaching for the runner', () => {
    const tree = withSource('src/checks/verdict.ts', (source) => `import { runScenario } from '../runner/run-scenario.ts';\n${source}`);
    expect(checkLayering(tree, rules)).toEqual([
      expect.stringMatching(/^src\/checks\/verdict\.ts imports src\/runner\/run-scenario\.ts: src\/checks\/ may import src\/contract\/$/),
      // The runner imports the checks, so the same line also closes a cycle.
      expect.stringMatching(/^import cycle: .*src\/checks\/verdict\.ts.*src\/runner\/run-scenario\.ts/),
    ]);
  });

  it('fails on a cycle between two files of one folder', () => {
    const tree = withSource('src/shared/percentile.ts', (source) => `import { sleep } from './sleep.ts';\n${source}`);
    tree.set('src/shared/sleep.ts', `import { percentile } from './percentile.ts';\n${tree.get('src/shared/sleep.ts')}`);
    expect(checkLayering(tree, rules)).toEqual(['import cycle: src/shared/percentile.ts -> src/shared/sleep.ts']);
  });

  it('fails on a Node module that workflow code can reach, naming the path to it', () => {
    const tree = withSource('src/kernel/context/bytes.ts', (source) => `import { createHash } from 'node:crypto';\n${source}`);
    const problems = checkLayering(tree, rules);
    expect(problems.length).toBeGreaterThan(0);
    expect(
      problems.every((line) =>
        /^workflow code imports node:crypto: src\/kernel\/binaries\/[\w-]+\.ts -> .* -> src\/kernel\/context\/bytes\.ts$/.test(line),
      ),
    ).toBe(true);
  });

  it("fails on a Node module the harness workers' workflows reach, and on a workflow importing its own activities", () => {
    const tree = withSource('src/distributed/judging-workflow.ts', (source) => `import { readFileSync } from 'node:fs';\n${source}`);
    expect(checkLayering(tree, rules)).toEqual([
      'workflow code imports node:fs: src/distributed/harness-workflows.ts -> src/distributed/judging-workflow.ts',
    ]);
    const reaching = withSource('src/distributed/drive-workflow.ts', (source) => `import './drive-activities.ts';\n${source}`);
    expect(checkLayering(reaching, rules)).toContainEqual(
      expect.stringMatching(
        /^workflow code imports @temporalio\/activity: src\/distributed\/harness-workflows\.ts -> src\/distributed\/drive-workflow\.ts -> src\/distributed\/drive-activities\.ts$/,
      ),
    );
  });

  it('fails on production code importing test support, and on a module no row owns', () => {
    const tree = withSource('src/report/text.ts', (source) => `import { standardFixture } from '../result/testing/index.ts';\n${source}`);
    tree.set('src/newcomer/thing.ts', 'export const thing = 1;\n');
    expect(checkLayering(tree, rules)).toEqual([
      "src/newcomer/thing.ts: no row of docs/architecture.md's Folders table owns it",
      'src/report/text.ts imports test code src/result/testing/index.ts',
    ]);
  });

  it('fails when the table names a folder that is gone, and refuses a row it cannot read', () => {
    const stale = { ...rules, layers: [...rules.layers, { path: 'src/gone/', mayImport: ['src/contract/'] }] };
    expect(checkLayering(sources, stale)).toEqual(['docs/architecture.md: row src/gone/ owns no module (renamed or removed?)']);
    expect(() => parseLayerTable('## Folders\n| `src/x/` | a job | contract and mocks |\n')).toThrow(
      /row src\/x\/: "may import" names no `path`/,
    );
  });
});
