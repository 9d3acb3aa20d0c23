/**
 * Server dynamic config that mirrors the production deployment, read from the one file the
 * compose cluster mounts too (deploy/temporal/dynamicconfig/longrun.yaml), so the embedded server
 * and the compose cluster cannot drift: the blob limits Temporal ships with, and the history-size
 * limit raised to 500 MiB. Everything else stays at Temporal's defaults.
 *
 * Worker Versioning (upgrade-worker with `versioning`) needs no value here: go.temporal.io/server
 * v1.32.1 defaults `system.enableDeploymentVersions`, `frontend.workerVersioningWorkflowAPIs` and
 * `system.enableSendTargetVersionChanged` (a pinned run told its target version changed) to true.
 * The drainage status the server refreshes every 3 minutes (`matching.wv.*`) is not read: the
 * harness counts a build's open runs in visibility itself.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { packagePath } from '../shared/package-paths.ts';

export type DynamicConfig = Record<string, string | number | boolean>;

export const PRODUCTION_DYNAMIC_CONFIG_FILE = packagePath('deploy/temporal/dynamicconfig/longrun.yaml');

/** A Temporal dynamic config file whose every key has one value for all (no constraints). */
export function readDynamicConfigFile(path: string): DynamicConfig {
  const config = parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(config ?? {}).map(([key, entries]) => {
      const [entry, ...more] = Array.isArray(entries) ? entries : [];
      const { value, constraints } = (entry ?? {}) as { value?: unknown; constraints?: object };
      if (more.length > 0 || Object.keys(constraints ?? {}).length > 0 || !['string', 'number', 'boolean'].includes(typeof value)) {
        throw new Error(`${path}: ${key}: want one entry with a scalar value and no constraints`);
      }
      return [key, value as string | number | boolean];
    }),
  );
}

export const PRODUCTION_DYNAMIC_CONFIG: DynamicConfig = readDynamicConfigFile(PRODUCTION_DYNAMIC_CONFIG_FILE);

export function dynamicConfigArgs(config: DynamicConfig): string[] {
  return Object.entries(config).flatMap(([key, value]) => ['--dynamic-config-value', `${key}=${JSON.stringify(value)}`]);
}
