/**
 * deploy/kubernetes/, checked without a cluster: every object against the Kubernetes schemas,
 * the references between them, the kustomization's list, and every `longrun` command line
 * parsed by the CLI's own flag parser.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { COMMANDS } from '../../src/cli/commands.ts';
import type { DeclaredCommand, FlagTable } from '../../src/cli/flags.ts';
import { judgedElsewhereRefusal } from '../../src/runner/judged-elsewhere.ts';
import { parseScenario, resolveScenario } from '../../src/scenario/index.ts';
import {
  crossReferenceProblems,
  flagValue,
  KUBERNETES_DIR,
  KUSTOMIZATION,
  type KubernetesObject,
  manifestFiles,
  named,
  podSpecOf,
  readManifests,
  schemaProblem,
} from './kubernetes-manifests.ts';

const objects = readManifests();
const kustomization = parse(readFileSync(join(KUBERNETES_DIR, KUSTOMIZATION), 'utf8')) as {
  resources: string[];
  images: { name: string }[];
};
const containers = objects.flatMap((o) => (podSpecOf(o)?.containers ?? []).map((c) => [`${o.kind} ${o.metadata.name}`, c] as const));
/** Gives `--flag` another value in a container's command. */
const setFlag = (object: KubernetesObject, flag: string, value: string) => {
  const command = podSpecOf(object)?.containers[0]?.command ?? [];
  command[command.indexOf(`--${flag}`) + 1] = value;
};
/** A copy to break: the checks must fail on it. */
const copy = (): KubernetesObject[] => structuredClone(objects);

describe('deploy/kubernetes', () => {
  it('has the harness workers, the mock replicas and their Service, the worker and the soak Job', () => {
    expect(objects.map((o) => `${o.kind} ${o.metadata.name}`).sort()).toEqual([
      'ConfigMap longrun-cluster',
      'ConfigMap longrun-scenarios',
      'Deployment longrun-harness-worker',
      'Deployment longrun-mock',
      'Deployment longrun-worker',
      'Job longrun-soak',
      'PersistentVolumeClaim longrun-reports',
      'Service longrun-mock',
    ]);
  });

  it('holds only objects the Kubernetes schemas accept', () => {
    expect(objects.map(schemaProblem).filter(Boolean)).toEqual([]);
  });

  it('refuses an object the schemas do not accept', () => {
    const broken = copy();
    const harness = named(broken, 'Deployment', 'longrun-harness-worker');
    (harness.spec as { replicas: unknown }).replicas = 'two';
    expect(schemaProblem(harness)).toMatch(/Deployment longrun-harness-worker: .*replicas must be integer/);
    const job = named(broken, 'Job', 'longrun-soak');
    delete (podSpecOf(job) as { containers?: unknown }).containers;
    expect(schemaProblem(job)).toMatch(/Job longrun-soak: .*containers/);
    expect(schemaProblem({ ...job, apiVersion: 'batch/v2' })).toMatch(/no schema for batch\/v2 Job/);
  });

  it('lists every manifest in the kustomization, and runs every container on the one longrun image', () => {
    expect([...kustomization.resources].sort()).toEqual(manifestFiles());
    expect(kustomization.images.map((i) => i.name)).toEqual(['longrun']);
    for (const [owner, container] of containers) expect(container.image, owner).toBe('longrun');
  });

  it('judges on the queue the harness workers serve; selects, reaches and mounts what exists', () => {
    expect(crossReferenceProblems(objects)).toEqual([]);
    expect(flagValue(podSpecOf(named(objects, 'Job', 'longrun-soak'))?.containers[0]?.command, 'judge-on')).toBe('longrun-harness');
  });

  it.each([
    [
      'the soak on another queue',
      (o: KubernetesObject[]) => setFlag(named(o, 'Job', 'longrun-soak'), 'judge-on', 'elsewhere'),
      /the soak judges on elsewhere, the harness workers serve longrun-harness/,
    ],
    [
      'a Service selecting other pods',
      (o: KubernetesObject[]) => {
        (named(o, 'Service', 'longrun-mock').spec as { selector: object }).selector = { app: 'x' };
      },
      /does not select the mock Deployment's pods/,
    ],
    [
      'a worker given another mock address',
      (o: KubernetesObject[]) => setFlag(named(o, 'Deployment', 'longrun-worker'), 'mock-url', 'http://mock:80'),
      /--mock-url http:\/\/mock:80 is not/,
    ],
    [
      'a mock listening on another port',
      (o: KubernetesObject[]) => setFlag(named(o, 'Deployment', 'longrun-mock'), 'port', '9000'),
      /target port is not the port/,
    ],
    [
      'a ConfigMap gone',
      (o: KubernetesObject[]) =>
        o.splice(
          o.findIndex((x) => x.metadata.name === 'longrun-scenarios'),
          1,
        ),
      /Job longrun-soak: no ConfigMap longrun-scenarios/,
    ],
    [
      'a Deployment selecting none of its pods',
      (o: KubernetesObject[]) => {
        const t = named(o, 'Deployment', 'longrun-worker').spec?.template?.metadata;
        if (t) t.labels = {};
      },
      /Deployment longrun-worker: its selector/,
    ],
  ] as const)('finds a broken reference: %s', (_, breakIt, message) => {
    const broken = copy();
    breakIt(broken);
    expect(crossReferenceProblems(broken).join('\n')).toMatch(message);
  });

  it.each(containers.map(([owner, c]) => [owner, c.command ?? []] as const))(
    '%s runs a longrun command the CLI parses',
    async (_, command) => {
      expect(command[0]).toBe('longrun');
      const registered = COMMANDS[command[1] ?? ''];
      if (!registered) throw new Error(`longrun ${command[1]} is not a command in src/cli/commands.ts`);
      const declared = (await registered.load()) as DeclaredCommand<FlagTable>;
      expect(() => declared.parse(command.slice(2))).not.toThrow();
      const scenario = flagValue(command, 'scenario');
      if (scenario) expect(resolveScenario(scenario).scenario.name).toBe(scenario);
    },
  );

  it('would refuse a flag the CLI lacks', async () => {
    const declared = (await COMMANDS['harness-worker']?.load()) as DeclaredCommand<FlagTable>;
    expect(() => declared.parse(['--task-queu', 'q'])).toThrow(/unknown option --task-queu \(did you mean --task-queue\?\)/);
  });

  it("soaks a scenario of the scenarios ConfigMap that can be judged on the queue, with the cluster's address", () => {
    const job = named(objects, 'Job', 'longrun-soak');
    const container = podSpecOf(job)?.containers[0];
    const path = container?.command?.[2] ?? '';
    const mount = container?.volumeMounts?.find((m) => path.startsWith(`${m.mountPath}/`));
    const volume = podSpecOf(job)?.volumes?.find((v) => v.name === mount?.name);
    const text = named(objects, 'ConfigMap', volume?.configMap?.name ?? '').data?.[path.slice((mount?.mountPath.length ?? 0) + 1)];
    if (text === undefined) throw new Error(`the soak's scenario ${path} is in no mounted ConfigMap`);
    const scenario = parseScenario(text, path);
    expect(scenario.chaos).toEqual([]);
    expect(judgedElsewhereRefusal(scenario, false)).toBeUndefined();
    expect(named(objects, 'ConfigMap', 'longrun-cluster').data?.TEMPORAL_ADDRESS).toMatch(/^[^\s:/]+:\d+$/);
  });
});
