export {
  type DynamicConfig,
  dynamicConfigArgs,
  PRODUCTION_DYNAMIC_CONFIG,
} from './dynamic-config.ts';
export {
  type ClusterSettings,
  ClusterSettingsError,
  clusterSettingsFromEnv,
  describeCluster,
} from './existing-cluster.ts';
export { GoKernelBinaryError, resolveGoKernelBinary } from './go-kernel-binary.ts';
export type { GoBinary } from './go-program.ts';
export {
  type ObjectStore,
  type ObjectStoreOptions,
  type StoredObject,
  startObjectStore,
} from './object-store/object-store.ts';
export { ObjectStoreError, resolveS3ServerBinary } from './object-store/s3-server-binary.ts';
export { findPostgresBinDir, type PostgresCluster, PostgresError, queryPostgres, startPostgres } from './postgres-cluster.ts';
export { installRuntime } from './runtime.ts';
export { SERVICES, type ServiceCluster, type ServiceName, ServiceStartError } from './service-cluster.ts';
export {
  resolveTemporalBinary,
  type TemporalBinary,
  TemporalBinaryError,
} from './temporal-binary.ts';
export { DEFAULT_UI_PORT, startTemporalUi, type TemporalUi, TemporalUiError } from './temporal-ui.ts';
export {
  type Environment,
  EnvironmentError,
  type EnvironmentOptions,
  freeLoopbackPort,
  type Persistence,
  ServerExitedError,
  startEnvironment,
  type Topology,
} from './test-environment.ts';
export { resolveToxiproxyBinary, ToxiproxyBinaryError } from './toxiproxy-binary.ts';
export { workerConnectionOptions } from './worker-connection.ts';
