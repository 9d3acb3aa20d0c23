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

  it('reads each spelling of the behavior a history writes, and none as unspecified', () => {
    const version = { deploymentName: 'q', buildId: 'v1' };
    const behaviorOf = (versioningBehavior?: unknown) =>
      deploymentStampOf({ deploymentVersion: version, ...(versioningBehavior === undefined ? {} : { versioningBehavior }) }).deployment
        ?.behavior;
    expect(behaviorOf('VERSIONING_BEHAVIOR_AUTO_UPGRADE')).toBe('auto-upgrade');
    expect(behaviorOf('PINNED')).toBe('pinned');
    expect(behaviorOf('AUTO_UPGRADE')).toBe('auto-upgrade');
    expect(behaviorOf(1)).toBe('pinned');
    for (const none of [undefined, 0, 'VERSIONING_BEHAVIOR_UNSPECIFIED', '']) expect(behaviorOf(none)).toBe('unspecified');
  });

  it('reads the empty strings and null messages of SDK objects as absent', () => {
    // protobufjs gives an unset string field as '' and an unset message field as null.
    const unversioned = {
      deploymentVersion: null,
      workerDeploymentVersion: '',
      workerDeploymentName: '',
      workerVersion: { buildId: 'bundle-checksum' },
      versioningBehavior: 0,
    };
    expect(deploymentStampOf(unversioned)).toEqual({});
    expect(
      deploymentStampOf({ ...unversioned, deploymentVersion: { deploymentName: '', buildId: '' }, workerDeploymentVersion: 'q:v3' }),
    ).toEqual({
      deployment: { version: 'q:v3', buildId: 'v3', behavior: 'unspecified' },
    });
    expect(deploymentStampOf({ ...unversioned, workerDeploymentName: 'q' })).toEqual({
      deployment: { version: 'q:bundle-checksum', buildId: 'bundle-checksum', behavior: 'unspecified' },
    });
  });

  it('takes a version string without a separator, or a field of another type, for no version', () => {
    // Servers write the unversioned worker's version as "__unversioned__": no deployment in it.
    expect(deploymentStampOf({ workerDeploymentVersion: '__unversioned__', workerVersion: { buildId: 'bundle-checksum' } })).toEqual({});
    expect(deploymentStampOf({ workerDeploymentVersion: { deploymentName: 'q', buildId: 'v1' } })).toEqual({});
    expect(
      deploymentStampOf({ deploymentVersion: { deploymentName: 7, buildId: 'v1' }, workerDeploymentName: 'q' }).deployment?.version,
    ).toBe('q:v1');
  });
});
