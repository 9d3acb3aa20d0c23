/**
 * `node --import tsx tools/toxiproxy/build.ts`: builds Toxiproxy for longrun's network faults
 * ahead of time (otherwise the first scenario with a `network` chaos step builds it).
 */
import { resolveToxiproxyBinary } from '../../src/environment/index.ts';

const binary = await resolveToxiproxyBinary().catch((error: Error) => {
  console.error(`longrun: ${error.message}`);
  process.exit(1);
});
console.error(`longrun: Toxiproxy ready (${binary.source}): ${binary.path}`);
