import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The checks' own tests and the recorded corpus's verdicts: the test of `npm run mutation:checks`
 * (stryker.checks.config.json). No global setup: none of these starts a server or a Go program;
 * the corpus's replay tests are skipped (`CORPUS_VERDICTS_ONLY`: they judge the kernel, not the checks).
 * `CHECKS_TESTS` (comma-separated paths) narrows it to the tests that can see one file's mutants
 * (`npm run mutation:checks:narrow`, src/mutation/checks-mutation.ts).
 */
const narrowed = process.env.CHECKS_TESTS?.split(',').filter(Boolean);

/** The narrowed tests in the order given: the runner bails at the first failure, so a cheap kill comes first. */
class GivenOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => narrowed?.findIndex((t) => f.moduleId.endsWith(`/${t}`)) ?? 0;
    return [...files].sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: narrowed ?? ['src/checks/**/*.test.ts', 'test/corpus/corpus.test.ts', 'test/from-history-fixture.test.ts'],
    env: { CORPUS_VERDICTS_ONLY: '1' },
    ...(narrowed && { sequence: { sequencer: GivenOrder } }),
    silent: 'passed-only',
    testTimeout: 120_000,
  },
});
