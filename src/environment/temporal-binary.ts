/**
 * Finds or builds the Temporal server binary that the embedded environment runs.
 * Order: LONGRUN_TEMPORAL_BIN (any existing `temporal`-compatible binary) -> the cached build
 * of tools/temporal-server -> build it now with Go. The cache is keyed by the Go sources and
 * go.sum, so a change to either builds afresh.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const SERVER_SOURCE_DIR = resolve(fileURLToPath(import.meta.url), '../../../tools/temporal-server');
const MIN_GO = [1, 26, 8] as const;

export class TemporalBinaryError extends Error {
  override name = 'TemporalBinaryError';
}

export interface TemporalBinary {
  path: string;
  source: 'env' | 'cache' | 'built';
}

export interface ResolveOptions {
  /** Build when nothing usable exists (default true). */
  build?: boolean;
  /** Progress lines while building; default prints to stderr. */
  onProgress?: (line: string) => void;
}

export function cacheDir(): string {
  const base = process.env.LONGRUN_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'longrun');
  return join(base, 'temporal-server');
}

/** A hash of everything that decides the binary: the Go sources, go.mod and go.sum. */
export function sourceKey(dir = SERVER_SOURCE_DIR): string {
  const hash = createHash('sha256');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.go') || f === 'go.mod' || f === 'go.sum')
    .sort();
  for (const file of files)
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(dir, file)))
      .update('\0');
  return hash.digest('hex').slice(0, 16);
}

export function cachedBinaryPath(): string {
  return join(cacheDir(), sourceKey(), 'temporal-server');
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export async function resolveTemporalBinary(options: ResolveOptions = {}): Promise<TemporalBinary> {
  const fromEnv = process.env.LONGRUN_TEMPORAL_BIN;
  if (fromEnv) {
    if (!isExecutableFile(fromEnv)) {
      throw new TemporalBinaryError(`LONGRUN_TEMPORAL_BIN=${fromEnv} is not an executable file`);
    }
    return { path: fromEnv, source: 'env' };
  }
  const cached = cachedBinaryPath();
  if (isExecutableFile(cached)) return { path: cached, source: 'cache' };
  if (options.build === false) {
    throw new TemporalBinaryError(`no Temporal server binary at ${cached}: run \`npm run build:server\` or set LONGRUN_TEMPORAL_BIN`);
  }
  await buildTemporalServer(cached, options.onProgress);
  return { path: cached, source: 'built' };
}

async function goVersion(): Promise<number[] | undefined> {
  try {
    const { stdout } = await promisify(execFile)('go', ['env', 'GOVERSION']);
    const match = /go(\d+)\.(\d+)(?:\.(\d+))?/.exec(stdout);
    return match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : undefined;
  } catch {
    return undefined;
  }
}

function atLeast(version: number[], min: readonly number[]): boolean {
  for (let i = 0; i < min.length; i++) {
    const a = version[i] ?? 0;
    const b = min[i] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}

/** Builds tools/temporal-server into `target`, atomically: a reader never sees half a binary. */
export async function buildTemporalServer(
  target: string,
  onProgress: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<void> {
  const version = await goVersion();
  const need = MIN_GO.join('.');
  if (!version) {
    throw new TemporalBinaryError(
      `Go >= ${need} is needed to build the embedded Temporal server: install Go from https://go.dev/dl, or set LONGRUN_TEMPORAL_BIN to a temporal CLI binary`,
    );
  }
  if (!atLeast(version, MIN_GO)) {
    throw new TemporalBinaryError(
      `Go ${version.join('.')} is too old to build the embedded Temporal server: need >= ${need}, or set LONGRUN_TEMPORAL_BIN`,
    );
  }
  mkdirSync(join(target, '..'), { recursive: true });
  const partial = `${target}.partial-${process.pid}`;
  const started = Date.now();
  onProgress(`longrun: building the embedded Temporal server from ${SERVER_SOURCE_DIR} (once; a cold build takes several minutes)`);
  const ticker = setInterval(
    () => onProgress(`longrun: still building the Temporal server (${Math.round((Date.now() - started) / 1000)} s)`),
    30_000,
  );
  try {
    const output = await new Promise<string>((resolvePromise, reject) => {
      const child = spawn('go', ['build', '-trimpath', '-ldflags=-s -w', '-o', partial, '.'], {
        cwd: SERVER_SOURCE_DIR,
        env: {
          ...process.env,
          GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? 'local',
          CGO_ENABLED: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let log = '';
      child.stdout.on('data', (d) => (log += d));
      child.stderr.on('data', (d) => (log += d));
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolvePromise(log) : reject(new TemporalBinaryError(`go build failed (exit ${code}):\n${log.trim()}`)),
      );
    });
    renameSync(partial, target);
    if (output.trim()) onProgress(output.trim());
    onProgress(`longrun: Temporal server built in ${Math.round((Date.now() - started) / 1000)} s: ${target}`);
  } finally {
    clearInterval(ticker);
    if (existsSync(partial)) rmSync(partial, { force: true });
  }
}
