import { defineConfig } from 'vitest/config';

/**
 * The checks' own tests and the recorded corpus's verdicts: the test of `npm run mutation:checks`
 * (stryker.checks.config.json). No global setup: none of these starts a server or a Go program;
 * the corpus's replay tests are left out (they judge the kernel, not the checks).
 */
export default defineConfig({
  test: {
    include: ['src/checks/**/*.test.ts', 'test/corpus/corpus.test.ts', 'test/from-history-fixture.test.ts'],
    testNamePattern: /^(?!.*(histories replay on|does not replay))/,
    silent: 'passed-only',
    testTimeout: 120_000,
  },
});
