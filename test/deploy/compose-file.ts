/** docker-compose.yml as the tests read it: parsed with YAML merge keys, as docker compose does. */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');

export interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string | string[];
  entrypoint?: string | string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] | string };
  profiles?: string[];
  pid?: string;
}

export interface ComposeFile {
  name?: string;
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

export function readComposeFile(path = join(REPO_ROOT, 'docker-compose.yml')): ComposeFile {
  return parse(readFileSync(path, 'utf8'), { merge: true }) as ComposeFile;
}

/** A service's command as argv (the file writes longrun commands as one plain string). */
export function argvOf(service: ComposeService): string[] {
  const command = service.command ?? [];
  return Array.isArray(command) ? command : command.split(/\s+/).filter(Boolean);
}

/** The value of `--flag` in argv. */
export function flagOf(argv: readonly string[], flag: string): string | undefined {
  const at = argv.indexOf(`--${flag}`);
  return at < 0 ? undefined : argv[at + 1];
}

/** The host path mounted at `target` (or at a directory above it), resolved in the repository. */
export function hostPathOf(service: ComposeService, target: string): string | undefined {
  for (const volume of service.volumes ?? []) {
    const [source, mountedAt] = volume.split(':');
    if (!source?.startsWith('./') || !mountedAt) continue;
    if (target === mountedAt || target.startsWith(`${mountedAt}/`)) return join(REPO_ROOT, source, target.slice(mountedAt.length));
  }
  return undefined;
}

/**
 * Runs a service's `CMD node ...` health check here, each argument passed through `rewrite`
 * (to point it at a local server), and gives its exit code: 0 is healthy.
 */
export async function runNodeHealthcheck(service: ComposeService, rewrite: (arg: string) => string): Promise<number> {
  const test = service.healthcheck?.test;
  if (!Array.isArray(test) || test[0] !== 'CMD' || test[1] !== 'node')
    throw new Error(`not a CMD node health check: ${JSON.stringify(test)}`);
  try {
    await promisify(execFile)(process.execPath, test.slice(2).map(rewrite));
    return 0;
  } catch (error) {
    return (error as { code: number }).code;
  }
}
