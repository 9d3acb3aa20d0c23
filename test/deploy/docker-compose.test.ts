/**
 * docker-compose.yml, checked without a Docker engine: the services and what they expose, health
 * checks and start order, the dynamic config, the wiring through Toxiproxy, the k6 settings, and
 * every `longrun` command it runs against the CLI's registry.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type MockServer, startMockServer } from '../../mocks/index.ts';
import { COMMANDS } from '../../src/cli/commands.ts';
import { PRODUCTION_DYNAMIC_CONFIG } from '../../src/environment/index.ts';
import { resolveScenario } from '../../src/scenario/index.ts';
import { argvOf, type ComposeService, flagOf, hostPathOf, REPO_ROOT, readComposeFile, runNodeHealthcheck } from './compose-file.ts';

const compose = readComposeFile();
const services = compose.services;
const service = (name: string): ComposeService => {
  const found = services[name];
  if (!found) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
};
/** Services that run once and exit (schema, namespace, load and soak runs): no health check. */
const ONE_SHOT = ['temporal-schema', 'temporal-namespace', 'k6', 'soak'];
const containerPorts = (s: ComposeService) => (s.ports ?? []).map((p) => Number(p.split(':').at(-1)));

describe('docker-compose.yml', () => {
  it('has the cluster, the UI, the mock model, the worker, k6 and Toxiproxy', () => {
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining(['postgresql', 'temporal', 'temporal-ui', 'mock-model', 'worker', 'k6', 'toxiproxy']),
    );
    expect(service('postgresql').image).toMatch(/^postgres:\d+/);
    expect(service('temporal').image).toMatch(/^temporalio\/(server|auto-setup):\d+\.\d+\.\d+$/);
    expect(service('temporal-ui').image).toMatch(/^temporalio\/ui:/);
    expect(service('k6').image).toMatch(/^grafana\/k6:\d/);
    expect(service('toxiproxy').image).toMatch(/^ghcr\.io\/shopify\/toxiproxy:\d/);
    for (const name of ['mock-model', 'worker', 'soak']) expect(service(name).build?.dockerfile).toBe('deploy/longrun.Dockerfile');
    expect(existsSync(join(REPO_ROOT, 'deploy/longrun.Dockerfile'))).toBe(true);
  });

  it('publishes gRPC, the HTTP API, the UI and the Toxiproxy API', () => {
    expect(containerPorts(service('temporal'))).toEqual(expect.arrayContaining([7233, 7243]));
    expect(service('temporal').environment?.FRONTEND_HTTP_PORT).toBe('7243');
    expect(containerPorts(service('temporal-ui'))).toContain(8080);
    expect(containerPorts(service('toxiproxy'))).toContain(8474);
  });

  it('gives every long-lived service a health check', () => {
    for (const [name, s] of Object.entries(services)) {
      if (ONE_SHOT.includes(name)) continue;
      expect(s.healthcheck?.test, `${name} has no healthcheck`).toBeDefined();
      expect(s.healthcheck?.test.length, `${name}'s healthcheck test is empty`).toBeGreaterThan(1);
    }
  });

  it('starts each service after what it needs, on conditions that can hold', () => {
    for (const [name, s] of Object.entries(services)) {
      for (const [needed, { condition }] of Object.entries(s.depends_on ?? {})) {
        const target = service(needed);
        expect(['service_healthy', 'service_completed_successfully'], `${name} waits for ${needed}`).toContain(condition);
        if (condition === 'service_healthy') expect(target.healthcheck, `${name} waits for ${needed} to be healthy`).toBeDefined();
        else expect(ONE_SHOT, `${name} waits for ${needed} to complete`).toContain(needed);
      }
    }
    const waitsFor = (name: string) => service(name).depends_on ?? {};
    expect(waitsFor('temporal-schema')).toEqual({ postgresql: { condition: 'service_healthy' } });
    expect(waitsFor('temporal')).toEqual({ 'temporal-schema': { condition: 'service_completed_successfully' } });
    expect(waitsFor('temporal-namespace')).toEqual({ temporal: { condition: 'service_healthy' } });
    expect(waitsFor('temporal-ui')).toEqual({ temporal: { condition: 'service_healthy' } });
    expect(waitsFor('worker')).toEqual({
      'temporal-namespace': { condition: 'service_completed_successfully' },
      toxiproxy: { condition: 'service_healthy' },
      'mock-model': { condition: 'service_healthy' },
    });
    expect(waitsFor('k6')).toEqual({ worker: { condition: 'service_healthy' } });
  });

  it('runs Temporal with the production limits in its dynamic config file', () => {
    const temporal = service('temporal');
    const file = hostPathOf(temporal, temporal.environment?.DYNAMIC_CONFIG_FILE_PATH ?? '');
    expect(file && existsSync(file), `DYNAMIC_CONFIG_FILE_PATH is not a file mounted from the repository: ${file}`).toBe(true);
    const config = parse(readFileSync(file as string, 'utf8')) as Record<string, { value: unknown; constraints?: object }[]>;
    const values = Object.fromEntries(Object.entries(config).map(([key, entries]) => [key, entries[0]?.value]));
    expect(values).toEqual({
      'limit.blobSize.error': 2 * 1024 * 1024,
      'limit.blobSize.warn': 512 * 1024,
      'limit.historySize.error': 500 * 1024 * 1024,
    });
    expect(values).toEqual(PRODUCTION_DYNAMIC_CONFIG);
  });

  it('mounts only files that exist', () => {
    for (const [name, s] of Object.entries(services)) {
      for (const volume of s.volumes ?? []) {
        const source = volume.split(':')[0] as string;
        if (source.startsWith('./') && source !== './reports')
          expect(existsSync(join(REPO_ROOT, source)), `${name} mounts ${source}`).toBe(true);
      }
    }
  });

  it('routes the worker to Temporal and to the mock model through Toxiproxy proxies that reach them', () => {
    const proxies = JSON.parse(readFileSync(hostPathOf(service('toxiproxy'), '/config/toxiproxy.json') as string, 'utf8')) as {
      name: string;
      listen: string;
      upstream: string;
    }[];
    const upstreamOf = (hostPort: string) => {
      const port = hostPort.split(':')[1];
      return proxies.find((p) => p.listen.endsWith(`:${port}`) && hostPort.startsWith('toxiproxy:'))?.upstream;
    };
    const worker = argvOf(service('worker'));
    const mockPort = flagOf(argvOf(service('mock-model')), 'port');
    expect(upstreamOf(service('worker').environment?.TEMPORAL_ADDRESS ?? '')).toBe('temporal:7233');
    expect(upstreamOf(new URL(flagOf(worker, 'mock-url') ?? 'http://none').host)).toBe(`mock-model:${mockPort}`);
    expect(flagOf(argvOf(service('mock-model')), 'host')).toBe('0.0.0.0');
  });

  it('points k6 at the HTTP API, the worker queue and the limits of the scenario the mock model plays', () => {
    const k6 = service('k6');
    const env = k6.environment ?? {};
    const script = argvOf(k6).find((arg) => arg.endsWith('.js')) as string;
    expect(existsSync(hostPathOf(k6, script) as string), `k6 runs ${script}, not in scenarios/k6`).toBe(true);
    expect(env.TEMPORAL_HTTP_URL).toBe(`http://temporal:${service('temporal').environment?.FRONTEND_HTTP_PORT}`);
    const worker = argvOf(service('worker'));
    expect(env.TASK_QUEUE).toBe(flagOf(worker, 'task-queue'));
    expect(JSON.stringify(service('worker').healthcheck?.test)).toContain(`/task-queues/${flagOf(worker, 'task-queue')}?`);
    const { scenario } = resolveScenario(flagOf(argvOf(service('mock-model')), 'scenario') as string);
    expect(JSON.parse(env.RUN_LIMITS ?? '{}')).toEqual(scenario.limits);
    expect(Number(env.MAX_TURNS)).toBe(scenario.runs.maxTurns);
  });

  const longrunCommands = Object.entries(services).flatMap(([name, s]) => {
    const argv = argvOf(s);
    return argv[0] === 'longrun' ? [[argv[1] ?? '', name, argv] as const] : [];
  });

  it('runs longrun in the mock model, the worker and the soak', () => {
    expect(longrunCommands.map(([command, name]) => `${name}: longrun ${command}`)).toEqual([
      'mock-model: longrun mock-server',
      'worker: longrun worker',
      'soak: longrun soak',
    ]);
  });

  it.each(longrunCommands)(
    'runs `longrun %s` (service %s), a command with those flags in src/cli/commands.ts',
    async (command, name, argv) => {
      const args = argv.slice(2);
      const flags = args.filter((a) => a.startsWith('--')).map((a) => a.slice(2));
      const registered = COMMANDS[command];
      if (!registered) {
        throw new Error(
          `docker-compose.yml service ${name} runs \`longrun ${command}\`, which is not a command in src/cli/commands.ts: add it (flags ${flags.map((f) => `--${f}`).join(', ')})`,
        );
      }
      const documented = `${registered.usage}\n${(await registered.load()).help}`;
      const missing = flags.filter((flag) => !new RegExp(`--${flag}\\b`).test(documented));
      expect(missing, `\`longrun ${command}\` (service ${name}) has no flag ${missing.map((f) => `--${f}`).join(', ')}`).toEqual([]);
    },
  );
});

describe('the mock model health check', () => {
  let server: MockServer | undefined;
  afterAll(async () => server?.close());

  it('passes on a mock server that answers and fails where none listens', async () => {
    server = await startMockServer({ seed: 1 });
    const check = (url: string) => runNodeHealthcheck(service('mock-model'), (arg) => arg.replace('http://127.0.0.1:8700', url));
    expect(await check(server.url)).toBe(0);
    const closed = server.url;
    await server.close();
    server = undefined;
    expect(await check(closed)).toBe(1);
  });
});
