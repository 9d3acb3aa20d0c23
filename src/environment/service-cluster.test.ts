import { existsSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServiceCluster } from './service-cluster.ts';
import { resolveTemporalBinary } from './temporal-binary.ts';
import { freeLoopbackPort } from './test-environment.ts';

describe('startServiceCluster', () => {
  it('names the service that did not start and its log, in one line, and keeps the log', async () => {
    const binary = await resolveTemporalBinary();
    // A port nothing listens on: the frontend cannot register the namespaces and exits.
    const nowhere = `127.0.0.1:${await freeLoopbackPort()}`;
    const before = new Set(readdirSync(tmpdir()).filter((name) => name.startsWith('longrun-services-')));
    const start = startServiceCluster({
      binary: binary.path,
      postgres: nowhere,
      port: await freeLoopbackPort(),
      httpPort: await freeLoopbackPort(),
      servicePorts: { history: await freeLoopbackPort(), matching: await freeLoopbackPort(), worker: await freeLoopbackPort() },
      dynamicConfigArgs: [],
      logLevel: 'warn',
    });
    const error = (await start.catch((e: Error) => e)) as Error;
    expect(error.name).toBe('ServiceStartError');
    expect(error.message).not.toContain('\n');
    const log = /see (\S+\/frontend\.log);/.exec(error.message)?.[1] ?? '';
    expect(error.message).toMatch(
      /^the Temporal frontend service did not start \(exit 1\): see \S+\/frontend\.log; its last line: temporal-server: /,
    );
    // The log stays for the user to read; the folder is this start's own.
    expect(existsSync(log)).toBe(true);
    expect(before.has(log.split('/').at(-2) ?? '')).toBe(false);
    rmSync(dirname(log), { recursive: true, force: true });
  }, 60_000);
});
