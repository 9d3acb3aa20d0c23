/**
 * longrun's mocks: the model API (agent and compaction model) and the sandbox API, answering
 * from seeded synthetic runs, with faults on demand and a recorder of every request.
 */
export * from './faults/index.ts';
export * from './handlers/index.ts';
export {
  createMockProvider,
  type MockProvider,
  type MockProviderOptions,
} from './mock-provider.ts';
export * from './recorder/index.ts';
export * from './server/index.ts';
export * from './synthetic/index.ts';
