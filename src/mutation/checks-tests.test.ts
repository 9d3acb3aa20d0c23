import { describe, expect, it } from 'vitest';
import { checksTestSet, importClosure, invariantId, relativeImports, type SourceTree, testsReaching, testsSeeing } from './checks-tests.ts';

function tree(files: Record<string, string>): SourceTree {
  return {
    read: (p) => {
      const text = files[p];
      if (text === undefined) throw new Error(`no ${p}`);
      return text;
    },
    exists: (p) => p in files,
  };
}

const checks = tree({
  'src/checks/invariants/a.ts': "import { x } from '../history/x.ts';\nexport const a = { id: 'alpha.one' };",
  'src/checks/invariants/b.ts': "export const b = { id: 'beta.two' };",
  'src/checks/invariants/index.ts': "export { a } from './a.ts';\nexport { b } from './b.ts';",
  'src/checks/history/x.ts': 'export const x = 1;',
  'src/checks/index.ts': "import './invariants/index.ts';",
  'src/checks/testing/index.ts': "export * from '../index.ts';",
  'src/checks/invariants/a.test.ts': "import { resultOf } from '../testing/index.ts';\nresultOf(run, 'alpha.one');",
  'src/checks/invariants/b.test.ts': "import { resultOf } from '../testing/index.ts';\nresultOf(run, 'beta.two');",
  'src/checks/history/x.test.ts': "import { x } from './x.js';",
  'src/checks/index.test.ts': "const m = await import('./index.ts');",
  'test/corpus/corpus.test.ts':
    "import { checkRun } from '../../src/checks/index.ts';\ncheckRun(runs).results.find((r) => r.id === 'beta.two');",
});
const tests = [
  'src/checks/history/x.test.ts',
  'src/checks/index.test.ts',
  'src/checks/invariants/a.test.ts',
  'src/checks/invariants/b.test.ts',
  'test/corpus/corpus.test.ts',
];

describe('the tests that can kill a checks mutant', () => {
  it('reads relative imports, re-exports and literal dynamic imports, not packages', () => {
    expect(
      relativeImports("import a from './a.ts';\nexport * from \"../b.js\";\nawait import('./c.ts');\nimport v from 'vitest';"),
    ).toEqual(['./a.ts', '../b.js', './c.ts']);
  });

  it('follows imports through re-exports, `.js` written for `.ts` and folders to their index', () => {
    expect([...importClosure('src/checks/invariants/a.test.ts', checks)].sort()).toEqual([
      'src/checks/history/x.ts',
      'src/checks/index.ts',
      'src/checks/invariants/a.test.ts',
      'src/checks/invariants/a.ts',
      'src/checks/invariants/b.ts',
      'src/checks/invariants/index.ts',
      'src/checks/testing/index.ts',
    ]);
  });

  it('counts every test that loads a file, through checkRun too', () => {
    expect(testsReaching('src/checks/invariants/a.ts', tests, checks)).toEqual(tests.slice(1));
    expect(testsReaching('src/checks/history/x.ts', tests, checks)).toEqual(tests);
  });

  it("keeps of those the file's own test first, the tests that name its id or import it, then the judges; drops tests of other invariants", () => {
    const reaching = testsReaching('src/checks/invariants/a.ts', tests, checks);
    expect(testsSeeing('src/checks/invariants/a.ts', reaching, checks)).toEqual([
      'src/checks/invariants/a.test.ts',
      'test/corpus/corpus.test.ts',
      'src/checks/index.test.ts',
    ]);
    expect(testsSeeing('src/checks/invariants/a.ts', reaching, checks, false)).toEqual(['src/checks/invariants/a.test.ts']);
    const b = testsReaching('src/checks/invariants/b.ts', tests, checks);
    expect(testsSeeing('src/checks/invariants/b.ts', b, checks, false)).toEqual([
      'src/checks/invariants/b.test.ts',
      'test/corpus/corpus.test.ts',
    ]);
    const x = testsReaching('src/checks/history/x.ts', tests, checks);
    expect(testsSeeing('src/checks/history/x.ts', x, checks)).toEqual([
      'src/checks/history/x.test.ts',
      'test/corpus/corpus.test.ts',
      'src/checks/index.test.ts',
    ]);
  });

  it("reads an invariant's id, and none from a module without one", () => {
    expect(invariantId("export const c: HistoryInvariant = {\n  id: 'compaction.card',")).toBe('compaction.card');
    expect(invariantId('export const x = 1;')).toBeUndefined();
  });

  it('lists the checks test set of the repository: every test under src/checks and the corpus verdicts', () => {
    const set = checksTestSet();
    expect(set).toContain('src/checks/invariants/elision-minimal.test.ts');
    expect(set).toContain('test/corpus/corpus.test.ts');
    expect(set.every((f) => f.endsWith('.test.ts'))).toBe(true);
  });
});
