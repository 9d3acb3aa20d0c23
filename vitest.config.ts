import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'mocks/**/*.test.ts', 'test/**/*.test.ts', 'scenarios/**/*.test.ts', 'bench/**/*.test.ts'],
    // Builds the Go programs (the embedded Temporal server, Toxiproxy) once, before any test file needs them.
    globalSetup: ['test/global-setup.ts'],
    // A test's console output (the SDK's warnings, "Activity failed" for every fault injected on
    // purpose) is shown only when that test fails; errors the SDK logs go to stderr regardless.
    silent: 'passed-only',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Integration tests each start a real Temporal server: two at a time fit two cores.
    maxWorkers: 2,
  },
});
