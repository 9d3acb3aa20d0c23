/**
 * The environment longrun hands the processes it starts. The user's cluster key goes only to one
 * that connects to that cluster itself: a foreign worker when longrun runs against
 * TEMPORAL_ADDRESS. The embedded server (plaintext, on loopback), its UI, PostgreSQL, Toxiproxy,
 * builds, replayers and longrun's own workers never get it.
 */

/** The variables that hold a secret of the user's cluster. */
const CLUSTER_SECRETS = ['TEMPORAL_API_KEY'] as const;

/** `env` (longrun's own) for a child; without the cluster's secrets unless it connects to the user's cluster. */
export function childEnv(options: { userCluster?: boolean } = {}, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const copy = { ...env };
  if (!options.userCluster) for (const name of CLUSTER_SECRETS) delete copy[name];
  return copy;
}

/**
 * Runs `start` with the cluster's secrets out of longrun's own environment, put back after: for a
 * child started where no environment can be given (the SDK starts the embedded server).
 */
export async function withoutClusterSecrets<T>(start: () => Promise<T>): Promise<T> {
  const kept = CLUSTER_SECRETS.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name] as string] as const]));
  for (const [name] of kept) delete process.env[name];
  try {
    return await start();
  } finally {
    for (const [name, value] of kept) process.env[name] = value;
  }
}
