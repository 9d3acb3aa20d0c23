import { resolveS3ServerBinary, resolveTemporalBinary, resolveToxiproxyBinary } from '../src/environment/index.ts';

/** Builds the Go programs the tests run (once, cached) before any test file needs them. */
export default async function setup(): Promise<void> {
  if (!process.env.TEMPORAL_ADDRESS) await resolveTemporalBinary();
  await resolveToxiproxyBinary();
  await resolveS3ServerBinary();
}
