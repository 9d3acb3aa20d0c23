/**
 * What longrun hands a worker it did not write, in its environment: where the cluster is, which
 * task queue to poll, and where the mock model and sandbox answer. Any language reads these;
 * `examples/go-kernel` is the worked example. Workflow-safe: constants only.
 */
export const WORKER_ENV = {
  /** The frontend's host:port. */
  address: 'TEMPORAL_ADDRESS',
  namespace: 'TEMPORAL_NAMESPACE',
  /** The task queue longrun starts this binary's runs on. */
  taskQueue: 'LONGRUN_TASK_QUEUE',
  /** A `longrun mock-server` base URL: the model API at URL/v1, the sandbox at URL/sandbox/v1. */
  mockUrl: 'LONGRUN_MOCK_URL',
  /** The OpenAI-compatible model base URL (`{URL}/chat/completions`); under network chaos a proxy's, not under the mock URL. */
  modelUrl: 'LONGRUN_MODEL_URL',
  /** The sandbox base URL (`{URL}/tools/{name}`). */
  sandboxUrl: 'LONGRUN_SANDBOX_URL',
  /**
   * The worker identity to poll under (Temporal records it in every WorkflowTaskStarted): how
   * longrun tells which binary took a run's tasks after an upgrade or a restart as another binary.
   */
  identity: 'LONGRUN_WORKER_IDENTITY',
  /** Set only when the scenario forces replay: "0", the worker keeps no workflow cache. */
  maxCachedWorkflows: 'LONGRUN_MAX_CACHED_WORKFLOWS',
} as const;
