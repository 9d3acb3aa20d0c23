import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'mocks/**/*.test.ts', 'test/**/*.test.ts', 'scenarios/**/*.test.ts', 'bench/**/*.test.ts'],
    // Builds the Go programs (the embedded Temporal server, Toxiproxy) once, before any test file needs them.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Integration tests each start a real Temporal server: two at a time fit two cores.
    maxWorkers: 2,
  },
});
