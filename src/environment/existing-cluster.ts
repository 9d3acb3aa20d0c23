/**
 * Connection settings for an existing Temporal cluster, read from the environment
 * (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_TLS_CERT / TEMPORAL_TLS_KEY / TEMPORAL_TLS_CA,
 * TEMPORAL_API_KEY), the variables the Temporal CLI reads too.
 */
import { readFileSync } from 'node:fs';
import type { ExistingServerConnectionOptions } from '@temporalio/testing';

export interface ClusterSettings {
  address: string;
  namespace: string;
  connectionOptions: ExistingServerConnectionOptions;
}

export class ClusterSettingsError extends Error {
  override name = 'ClusterSettingsError';
}

function readPem(variable: string, env: NodeJS.ProcessEnv): Buffer | undefined {
  const path = env[variable];
  if (!path) return undefined;
  try {
    return readFileSync(path);
  } catch (error) {
    throw new ClusterSettingsError(`${variable}=${path}: cannot read (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
}

/** undefined when TEMPORAL_ADDRESS is not set: then longrun embeds its own server. */
export function clusterSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): ClusterSettings | undefined {
  const address = env.TEMPORAL_ADDRESS;
  if (!address) return undefined;
  if (!/^[^\s:/]+:\d{1,5}$/.test(address) && !/^\[[0-9a-fA-F:]+\]:\d{1,5}$/.test(address)) {
    throw new ClusterSettingsError(`TEMPORAL_ADDRESS=${address}: want host:port`);
  }
  const cert = readPem('TEMPORAL_TLS_CERT', env);
  const key = readPem('TEMPORAL_TLS_KEY', env);
  const ca = readPem('TEMPORAL_TLS_CA', env);
  if (Boolean(cert) !== Boolean(key)) {
    throw new ClusterSettingsError('TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY go together: set both or neither');
  }
  const apiKey = env.TEMPORAL_API_KEY || undefined;
  const tlsWanted = Boolean(cert || ca || apiKey || env.TEMPORAL_TLS === 'true');
  const connectionOptions: ExistingServerConnectionOptions = {};
  if (tlsWanted) {
    connectionOptions.tls = {
      ...(ca ? { serverRootCACertificate: ca } : {}),
      ...(cert && key ? { clientCertPair: { crt: cert, key } } : {}),
    };
  }
  if (apiKey) connectionOptions.apiKey = apiKey;
  return {
    address,
    namespace: env.TEMPORAL_NAMESPACE || 'default',
    connectionOptions,
  };
}

/** Where a report or log may say which cluster was used: never a key or certificate. */
export function describeCluster(settings: ClusterSettings): string {
  const tls = settings.connectionOptions.tls ? ' (TLS)' : '';
  const key = settings.connectionOptions.apiKey ? ' (API key)' : '';
  return `${settings.address} namespace ${settings.namespace}${tls}${key}`;
}
