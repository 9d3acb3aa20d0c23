/**
 * The kernel, the system under test: its binaries (workflow bundles), its activities and the
 * pure functions that decide compaction, rebuild and the payload guard.
 */

export { FAILURE_TYPE } from '../contract/failure-types.ts';
export {
  type ActivitiesConfig,
  createActivities,
  DEFAULT_HTTP_TIMEOUTS,
  type KernelActivities,
} from './activities/index.ts';
export {
  type ActivityControls,
  BINARIES,
  BINARY_IDS,
  type Binary,
  type BinaryId,
  type BinaryName,
  binaryIdSchema,
  binaryNameSchema,
  CURRENT_BINARY,
  isBinaryId,
  RELEASES,
} from './binaries/index.ts';
export { activitiesConfigFor } from './binary-activities.ts';
export * from './context/index.ts';
export {
  CURRENT_KERNEL,
  type KernelOptions,
} from './workflows/kernel-options.ts';
