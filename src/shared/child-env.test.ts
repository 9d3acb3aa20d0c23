import { describe, expect, it } from 'vitest';
import { childEnv } from './child-env.ts';

describe('childEnv', () => {
  const env = { PATH: '/usr/bin', TEMPORAL_ADDRESS: 'cluster.example:7233', TEMPORAL_API_KEY: 'secret' };

  it("keeps the user's cluster key from a child that does not connect to that cluster itself", () => {
    expect(childEnv({}, env)).toEqual({ PATH: '/usr/bin', TEMPORAL_ADDRESS: 'cluster.example:7233' });
    expect(env.TEMPORAL_API_KEY).toBe('secret');
  });

  it('hands it to a child that connects to the cluster with it', () => {
    expect(childEnv({ userCluster: true }, env)).toEqual(env);
  });
});
