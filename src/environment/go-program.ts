/**
 * Finds or builds one of longrun's small Go programs (tools/<name>/). Order: an environment
 * variable naming any compatible binary -> the cached build -> build it now with Go. The cache
 * is keyed by the Go sources and go.sum, so a change to either builds afresh.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { cacheDir, isExecutableFile } from '../shared/cache.ts';
import { childEnv } from '../shared/child-env.ts';
import { BuildProgress } from './build-progress.ts';

const MIN_GO = [1, 26, 8] as const;
/**
 * No paths of this machine in the binary (so every clone shares Go's build cache entries), no
 * DWARF from the compiler (9% less CPU for a cold compile: docs/benchmarks.md, "Install") and no
 * symbol table or DWARF at the link: nothing longrun runs needs them, stack traces keep their
 * function names and lines.
 */
const BUILD_FLAGS = ['-trimpath', '-gcflags=all=-dwarf=false', '-ldflags=-s -w'];
/** How often a build in progress says how far it is. */
const PROGRESS_EVERY_MS = 15_000;

export interface GoProgram {
  /** Names the program in messages: "the embedded Temporal server". */
  title: string;
  /** The binary's file name and its cache folder. */
  name: string;
  sourceDir: string;
  /** Names a ready binary to use instead of a build. */
  envVar: string;
  /** What a build costs, for the line printed before it. */
  buildCost: string;
  /** The command that builds it ahead of time. */
  buildCommand: string;
  /** What to do instead of installing Go ("or set LONGRUN_TEMPORAL_BIN to a temporal CLI binary"). */
  alternative: string;
  /** The error thrown for a missing binary, a missing Go or a failed build. */
  errorClass: new (
    message: string,
  ) => Error;
}

export interface GoBinary {
  path: string;
  source: 'env' | 'cache' | 'built';
}

export interface ResolveOptions {
  /** Build when nothing usable exists (default true). */
  build?: boolean;
  /** Progress lines while building; default prints to stderr. */
  onProgress?: (line: string) => void;
}

/** A hash of everything that decides the binary: the Go sources, go.mod and go.sum. */
function sourceKey(dir: string): string {
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

function cachedBinaryPath(program: GoProgram): string {
  return join(cacheDir(program.name), sourceKey(program.sourceDir), program.name);
}

export async function resolveGoProgram(program: GoProgram, options: ResolveOptions = {}): Promise<GoBinary> {
  const fromEnv = process.env[program.envVar];
  if (fromEnv) {
    if (!isExecutableFile(fromEnv)) throw new program.errorClass(`${program.envVar}=${fromEnv} is not an executable file`);
    return { path: fromEnv, source: 'env' };
  }
  const cached = cachedBinaryPath(program);
  if (isExecutableFile(cached)) return { path: cached, source: 'cache' };
  if (options.build === false) {
    throw new program.errorClass(`no ${program.name} binary at ${cached}: run \`${program.buildCommand}\` or set ${program.envVar}`);
  }
  await buildGoProgram(program, cached, options.onProgress);
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

/** Builds the program into `target`, atomically: a reader never sees half a binary. */
async function buildGoProgram(
  program: GoProgram,
  target: string,
  onProgress: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<void> {
  const version = await goVersion();
  const need = MIN_GO.join('.');
  if (!version) {
    throw new program.errorClass(
      `Go >= ${need} is needed to build ${program.title}: install Go from https://go.dev/dl, ${program.alternative}`,
    );
  }
  if (!atLeast(version, MIN_GO)) {
    throw new program.errorClass(`Go ${version.join('.')} is too old to build ${program.title}: need >= ${need}, ${program.alternative}`);
  }
  mkdirSync(join(target, '..'), { recursive: true });
  const partial = `${target}.partial-${process.pid}`;
  const started = Date.now();
  onProgress(`longrun: building ${program.title} from ${program.sourceDir} (once; ${program.buildCost})`);
  const progress = new BuildProgress();
  const ticker = setInterval(
    () => onProgress(`longrun: building ${program.title}: ${progress.describe(Date.now() - started)}`),
    PROGRESS_EVERY_MS,
  );
  try {
    progress.planned(await buildPackages(program), Date.now() - started);
    await new Promise<void>((resolvePromise, reject) => {
      const child = spawn('go', ['build', '-v', ...BUILD_FLAGS, '-o', partial, '.'], {
        cwd: program.sourceDir,
        env: goEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      // -v names every package compiled; anything else on stderr is a download or an error.
      let log = '';
      const lines = createInterface({ input: child.stderr });
      lines.on('line', (line) => {
        progress.onLine(line);
        if (line.includes(' ')) log += `${line}\n`;
      });
      child.stdout.on('data', (d) => (log += d));
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolvePromise() : reject(new program.errorClass(`go build failed (exit ${code}):\n${log.trim()}`)),
      );
    });
    renameSync(partial, target);
    onProgress(`longrun: ${program.title} built in ${Math.round((Date.now() - started) / 1000)} s: ${target}`);
  } finally {
    clearInterval(ticker);
    if (existsSync(partial)) rmSync(partial, { force: true });
  }
}

function goEnv(): NodeJS.ProcessEnv {
  return { ...childEnv(), GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? 'local', CGO_ENABLED: '0' };
}

/**
 * The packages of the build, dependencies first, the main package last: all of them compile on
 * a cold machine (what the progress is for); with a warm Go build cache fewer do. This is also
 * where a cold module cache downloads, which the build would do anyway. (Asking Go which are
 * stale instead hashes every source file once more: half a minute.) Empty when Go cannot say.
 */
async function buildPackages(program: GoProgram): Promise<string[]> {
  try {
    const { stdout } = await promisify(execFile)('go', ['list', ...BUILD_FLAGS, '-deps', '.'], {
      cwd: program.sourceDir,
      env: goEnv(),
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout.split('\n').filter(Boolean);
  } catch {
    return [];
  }
}
