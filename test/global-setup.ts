import { resolveTemporalBinary } from '../src/environment/index.ts';

export default async function setup(): Promise<void> {
  if (process.env.TEMPORAL_ADDRESS) return;
  await resolveTemporalBinary();
}
