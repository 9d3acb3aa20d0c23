/**
 * `node --import tsx tools/s3-server/build.ts`: builds the S3 server that external storage
 * writes to ahead of time (otherwise the first store started builds it).
 */
import { resolveS3ServerBinary } from '../../src/environment/index.ts';

const binary = await resolveS3ServerBinary().catch((error: Error) => {
  console.error(`longrun: ${error.message}`);
  process.exit(1);
});
console.error(`longrun: S3 server ready (${binary.source}): ${binary.path}`);
