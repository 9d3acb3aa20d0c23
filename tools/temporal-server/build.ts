/**
 * `npm run build:server` and npm's postinstall: make sure the embedded Temporal server binary
 * exists (LONGRUN_TEMPORAL_BIN, the cache, or a build now). With --if-go, a machine without Go
 * gets one line saying what to do, and the install goes on.
 */
// The binary's own module, not the environment's index: an install that finds the build cached is over in a second.
import { resolveTemporalBinary, TemporalBinaryError } from '../../src/environment/temporal-binary.ts';

const ifGo = process.argv.includes('--if-go');
try {
  const binary = await resolveTemporalBinary();
  console.error(`longrun: Temporal server ready (${binary.source}): ${binary.path}`);
} catch (error) {
  if (!(error instanceof TemporalBinaryError)) throw error;
  console.error(`longrun: ${error.message}`);
  if (!ifGo) process.exit(1);
}
