/**
 * The Worker Deployment version a WorkflowTaskCompleted records (Worker Versioning): the
 * `deploymentVersion` of servers from 1.28, else the deprecated `workerDeploymentVersion` string
 * (`deployment:build`, earlier `deployment.build`) or `workerVersion.buildId` beside
 * `workerDeploymentName`; and the run's
 * `versioningBehavior`, a name (JSON export) or a number (SDK objects).
 */
import type { DeploymentStamp } from './model.ts';

type Raw = Record<string, unknown>;

const BEHAVIORS: Record<string, DeploymentStamp['behavior']> = {
  '1': 'pinned',
  '2': 'auto-upgrade',
  VERSIONING_BEHAVIOR_PINNED: 'pinned',
  VERSIONING_BEHAVIOR_AUTO_UPGRADE: 'auto-upgrade',
  PINNED: 'pinned',
  AUTO_UPGRADE: 'auto-upgrade',
};

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const record = (value: unknown): Raw => (value !== null && typeof value === 'object' ? (value as Raw) : {});

/** `{ deployment }` when the task was completed by a versioned worker; nothing otherwise. */
export function deploymentStampOf(attributes: Raw): { deployment?: DeploymentStamp } {
  const version = record(attributes.deploymentVersion);
  const legacy = text(attributes.workerDeploymentVersion) ?? '';
  const cut = legacy.includes(':') ? legacy.indexOf(':') : legacy.indexOf('.');
  const name = text(version.deploymentName) ?? text(attributes.workerDeploymentName) ?? (cut > 0 ? legacy.slice(0, cut) : undefined);
  const buildId = text(version.buildId) ?? (cut > 0 ? legacy.slice(cut + 1) : text(record(attributes.workerVersion).buildId));
  if (!name || !buildId) return {};
  const behavior = BEHAVIORS[String(attributes.versioningBehavior ?? '')] ?? 'unspecified';
  return { deployment: { version: `${name}:${buildId}`, buildId, behavior } };
}
