/** The activities of a binary's workers: the host's configuration, naming the binary, with its controls turned. */
import { BINARY_HEADER } from '../contract/run-marker.ts';
import type { ActivitiesConfig } from './activities/index.ts';
import { BINARIES, type BinaryId } from './binaries/index.ts';

export function activitiesConfigFor(binary: BinaryId, config: ActivitiesConfig): ActivitiesConfig {
  return { ...config, headers: { ...config.headers, [BINARY_HEADER]: binary }, ...BINARIES[binary].activityControls };
}
