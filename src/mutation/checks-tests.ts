/**
 * The tests that can kill a mutant of one checks file: those of the checks' test set
 * (vitest.checks.config.ts) whose static imports reach the file, directly or through other
 * modules (an invariant through `checks/index.ts`'s `checkRun`, too). A test that never loads the
 * file never runs its mutated code, so leaving it out changes no mutant's fate, only the time a
 * mutant costs. A test that loaded the file some other way (a computed `import()`, a child
 * process) would be missed, which could only turn a kill into a survivor: the score can come out
 * lower, never higher.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/** The checks' test set: every test under src/checks and the recorded corpus's verdicts. */
export const CHECKS_TEST_ROOT = 'src/checks';
export const CHECKS_EXTRA_TESTS = ['test/corpus/corpus.test.ts', 'test/from-history-fixture.test.ts'] as const;

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** The relative module specifiers of a source text (`import`, `export ... from`, literal `import()`). */
export function relativeImports(source: string): string[] {
  return [...source.matchAll(IMPORT)].map((m) => m[1] as string);
}

/** A specifier of `from` resolved to a repository path (`.js` written for `.ts`, a folder to its index.ts). */
function resolveImport(from: string, specifier: string, exists: (path: string) => boolean): string | undefined {
  const base = normalize(join(dirname(from), specifier));
  const candidates = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((c) => c.endsWith('.ts') && exists(c));
}

export interface SourceTree {
  read(path: string): string;
  exists(path: string): boolean;
}

const diskTree: SourceTree = { read: (p) => readFileSync(p, 'utf8'), exists: existsSync };

/** Every repository module `entry` loads, itself included. */
export function importClosure(entry: string, tree: SourceTree = diskTree): Set<string> {
  const seen = new Set<string>();
  const pending = [normalize(entry)];
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    if (seen.has(path)) continue;
    seen.add(path);
    for (const specifier of relativeImports(tree.read(path))) {
      const target = resolveImport(path, specifier, tree.exists);
      if (target) pending.push(target);
    }
  }
  return seen;
}

/** The tests among `tests` that load `target`, in the order given. */
export function testsReaching(target: string, tests: readonly string[], tree: SourceTree = diskTree): string[] {
  const wanted = normalize(target);
  return tests.filter((t) => importClosure(t, tree).has(wanted));
}

/**
 * The tests that judge a whole run's verdict over recorded or built histories, so any invariant's
 * mutant can change what they assert; quickest first.
 */
export const CHECKS_JUDGES = [
  'src/checks/python-histories.test.ts',
  'test/corpus/corpus.test.ts',
  'src/checks/index.test.ts',
  'test/from-history-fixture.test.ts',
  'src/checks/external-storage.test.ts',
] as const;

/** An invariant's id (`id: 'compaction.card'`), or undefined for a module that declares none. */
export function invariantId(source: string): string | undefined {
  return /\bid:\s*'([a-z-]+\.[a-z-]+)'/.exec(source)?.[1];
}

/**
 * The tests of `reaching` that can see `target`'s result: those that import it themselves, name
 * its invariant id (every invariant runs in every `checkRun`, but a test that reads one
 * invariant's result by id sees no other's), or judge a whole verdict. A test dropped here that
 * would have killed a mutant makes the score lower, never higher. In the order to run them: the
 * file's own test first, the judges last, so that a mutant its own test kills costs that test only
 * (the runner bails at the first failure). Without `withJudges`, a judge stays only if it names
 * the invariant's id or imports the file itself.
 */
export function testsSeeing(target: string, reaching: readonly string[], tree: SourceTree = diskTree, withJudges = true): string[] {
  const wanted = normalize(target);
  const id = invariantId(tree.read(wanted));
  const judges: readonly string[] = CHECKS_JUDGES;
  const own = wanted.replace(/\.ts$/, '.test.ts');
  const named = (t: string) => {
    const source = tree.read(t);
    if (id !== undefined && source.includes(`'${id}'`)) return true;
    return relativeImports(source).some((s) => resolveImport(t, s, tree.exists) === wanted);
  };
  const seeing = reaching.filter((t) => t !== own && !judges.includes(t) && named(t));
  const judging = judges.filter((t) => reaching.includes(t) && (withJudges || named(t)));
  return [...reaching.filter((t) => t === own), ...seeing, ...judging];
}

function testFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => join(dir, f))
    .sort();
}

/** The whole checks test set, as repository paths. */
export function checksTestSet(root = process.cwd()): string[] {
  return [...testFilesUnder(join(root, CHECKS_TEST_ROOT)).map((f) => relative(root, f)), ...CHECKS_EXTRA_TESTS];
}
