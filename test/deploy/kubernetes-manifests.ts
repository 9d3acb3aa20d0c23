/**
 * deploy/kubernetes/ as the tests read it: every object of every manifest, validated against the
 * Kubernetes OpenAPI schemas (kubernetes-models), and the references between them checked.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Service } from 'kubernetes-models/v1/Service';
import { parseAllDocuments } from 'yaml';
import { REPO_ROOT } from './compose-file.ts';

export const KUBERNETES_DIR = join(REPO_ROOT, 'deploy/kubernetes');
export const KUSTOMIZATION = 'kustomization.yaml';

/** The kinds the manifests use, by `apiVersion/kind`: each a model whose validate() applies the schema. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'v1/ConfigMap': ConfigMap,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'v1/Service': Service,
};

export interface Container {
  name: string;
  image: string;
  command?: string[];
  envFrom?: { configMapRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number }[];
  volumeMounts?: { name: string; mountPath: string }[];
}

interface PodSpec {
  containers: Container[];
  volumes?: { name: string; configMap?: { name: string }; persistentVolumeClaim?: { claimName: string } }[];
}

export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: {
    selector?: Record<string, string> & { matchLabels?: Record<string, string> };
    ports?: { port: number; targetPort?: string | number }[];
    template?: { metadata?: { labels?: Record<string, string> }; spec: PodSpec };
  };
  data?: Record<string, string>;
  /** Where it was read from, for messages. */
  file: string;
}

export function manifestFiles(): string[] {
  return readdirSync(KUBERNETES_DIR)
    .filter((f) => /\.ya?ml$/.test(f) && f !== KUSTOMIZATION)
    .sort();
}

export function readManifests(): KubernetesObject[] {
  return manifestFiles().flatMap((file) =>
    parseAllDocuments(readFileSync(join(KUBERNETES_DIR, file), 'utf8')).map((doc) => {
      if (doc.errors.length > 0) throw new Error(`deploy/kubernetes/${file}: ${doc.errors[0]?.message}`);
      return { ...(doc.toJSON() as Omit<KubernetesObject, 'file'>), file };
    }),
  );
}

/** The schema's complaint about the object, or undefined when it is valid. */
export function schemaProblem(object: KubernetesObject): string | undefined {
  const { file, ...data } = object;
  const Model = MODELS[`${data.apiVersion}/${data.kind}`];
  const where = `${file}: ${data.kind} ${data.metadata?.name}`;
  if (!Model) return `${where}: no schema for ${data.apiVersion} ${data.kind}`;
  try {
    new Model(data as never).validate();
    return undefined;
  } catch (error) {
    return `${where}: ${(error as Error).message.split('\n')[0]}`;
  }
}

export const named = (objects: readonly KubernetesObject[], kind: string, name: string): KubernetesObject => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`deploy/kubernetes has no ${kind} ${name}`);
  return found;
};

export const podSpecOf = (object: KubernetesObject): PodSpec | undefined => object.spec?.template?.spec;

/** `--flag`'s value in a command line. */
export function flagValue(command: readonly string[] | undefined, flag: string): string | undefined {
  const at = command?.indexOf(`--${flag}`) ?? -1;
  return at < 0 ? undefined : command?.[at + 1];
}

const contains = (labels: Record<string, string> | undefined, wanted: Record<string, string>) =>
  Object.keys(wanted).length > 0 && Object.entries(wanted).every(([k, v]) => labels?.[k] === v);

/**
 * What the schemas cannot see: the soak judges on the queue the harness workers serve, the
 * Service and Deployments select their pods, the worker reaches the mocks' Service, and every
 * ConfigMap and claim a pod names exists. One line per broken reference.
 */
export function crossReferenceProblems(objects: readonly KubernetesObject[]): string[] {
  const problems: string[] = [];
  const exists = (kind: string, name: string) => objects.some((o) => o.kind === kind && o.metadata.name === name);
  const firstCommand = (o: KubernetesObject) => podSpecOf(o)?.containers[0]?.command;

  const judgeOn = flagValue(firstCommand(named(objects, 'Job', 'longrun-soak')), 'judge-on');
  const served = flagValue(firstCommand(named(objects, 'Deployment', 'longrun-harness-worker')), 'task-queue');
  if (judgeOn === undefined || judgeOn !== served) problems.push(`the soak judges on ${judgeOn}, the harness workers serve ${served}`);

  for (const o of objects) {
    const template = o.spec?.template?.metadata?.labels;
    if (o.kind === 'Deployment' && !contains(template, o.spec?.selector?.matchLabels ?? {}))
      problems.push(`Deployment ${o.metadata.name}: its selector does not select its pods' labels`);
    for (const volume of podSpecOf(o)?.volumes ?? []) {
      if (volume.configMap && !exists('ConfigMap', volume.configMap.name))
        problems.push(`${o.kind} ${o.metadata.name}: no ConfigMap ${volume.configMap.name}`);
      if (volume.persistentVolumeClaim && !exists('PersistentVolumeClaim', volume.persistentVolumeClaim.claimName))
        problems.push(`${o.kind} ${o.metadata.name}: no PersistentVolumeClaim ${volume.persistentVolumeClaim.claimName}`);
    }
    for (const container of podSpecOf(o)?.containers ?? [])
      for (const source of container.envFrom ?? [])
        if (source.configMapRef && !exists('ConfigMap', source.configMapRef.name))
          problems.push(`${o.kind} ${o.metadata.name}: no ConfigMap ${source.configMapRef.name}`);
  }

  const service = named(objects, 'Service', 'longrun-mock');
  const mocks = named(objects, 'Deployment', 'longrun-mock');
  if (!contains(mocks.spec?.template?.metadata?.labels, service.spec?.selector ?? {}))
    problems.push("Service longrun-mock does not select the mock Deployment's pods");
  const mockPort = podSpecOf(mocks)?.containers[0]?.ports?.[0];
  const servicePort = service.spec?.ports?.[0];
  if (servicePort?.targetPort !== mockPort?.name || flagValue(firstCommand(mocks), 'port') !== String(mockPort?.containerPort))
    problems.push("Service longrun-mock's target port is not the port the mock server listens on");
  const mockUrl = flagValue(firstCommand(named(objects, 'Deployment', 'longrun-worker')), 'mock-url');
  if (mockUrl !== `http://${service.metadata.name}:${servicePort?.port}`)
    problems.push(`the worker's --mock-url ${mockUrl} is not Service longrun-mock's address`);
  return problems;
}
