import { describe, expect, it } from 'vitest';
import { deploymentStampOf } from './deployment-stamp.ts';

describe('deploymentStampOf', () => {
  it('reads deploymentVersion with the behavior as JSON names it, and as SDK objects number it', () => {
    const version = { deploymentName: 'q', buildId: 'v1' };
    expect(deploymentStampOf({ deploymentVersion: version, versioningBehavior: 'VERSIONING_BEHAVIOR_PINNED' })).toEqual({
      deployment: { version: 'q:v1', buildId: 'v1', behavior: 'pinned' },
    });
    expect(deploymentStampOf({ deploymentVersion: version, versioningBehavior: 2 })).toEqual({
      deployment: { version: 'q:v1', buildId: 'v1', behavior: 'auto-upgrade' },
    });
  });

  it('falls back to the older fields: workerDeploymentVersion, workerVersion beside workerDeploymentName', () => {
    expect(deploymentStampOf({ workerDeploymentVersion: 'q.v0' }).deployment?.version).toBe('q:v0');
    expect(deploymentStampOf({ workerDeploymentVersion: 'q:v0.1' }).deployment?.version).toBe('q:v0.1');
    expect(deploymentStampOf({ workerDeploymentName: 'q', workerVersion: { buildId: 'v2' }, versioningBehavior: 1 })).toEqual({
      deployment: { version: 'q:v2', buildId: 'v2', behavior: 'pinned' },
    });
  });

  it('finds none on a task an unversioned worker completed, even one that sends its build id', () => {
    expect(deploymentStampOf({ identity: 'v1@longrun-worker-1', workerVersion: { buildId: 'bundle-checksum' } })).toEqual({});
  });
});
