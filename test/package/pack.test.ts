/**
 * longrun as the npm package a user installs: `npm pack` (which compiles dist/), the tarball
 * installed into an empty folder, and then what a user does there: `npx longrun run smoke`, the
 * library from plain JavaScript, its types from TypeScript. The install reuses the server build
 * in longrun's cache (same Go sources, same key), so it builds nothing.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(REPO, 'node_modules/typescript/bin/tsc');

interface Result {
  code: number | null;
  output: string;
}

function sh(argv: string[], cwd: string): Promise<Result> {
  return new Promise((resolve, reject) => {
    const [command, ...args] = argv as [string, ...string[]];
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('the npm package', () => {
  let work: string;
  let project: string;
  let install: Result;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'longrun-pack-'));
    const pack = await sh(['npm', 'pack', '--pack-destination', work], REPO);
    expect(pack.code, pack.output).toBe(0);
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack wrote no tarball:\n${pack.output}`);
    project = join(work, 'project');
    await sh(['mkdir', project], work);
    writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'uses-longrun', private: true, type: 'module' })}\n`);
    // --foreground-scripts: the postinstall's lines (where the server came from) show in the output.
    install = await sh(['npm', 'install', '--no-audit', '--no-fund', '--foreground-scripts', join(work, tarball)], project);
  }, 900_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('installs from the tarball with the server from the cache and without TypeScript', () => {
    expect(install.code, install.output).toBe(0);
    expect(install.output).toMatch(/Temporal server ready \((cache|env)\)/);
    expect(install.output).not.toContain('building the embedded Temporal server');
    const installed = join(project, 'node_modules');
    expect(existsSync(join(installed, 'longrun/dist/src/index.js'))).toBe(true);
    expect(existsSync(join(installed, 'longrun/src')), 'TypeScript sources in the package').toBe(false);
    expect(existsSync(join(installed, 'tsx')), 'tsx installed with longrun').toBe(false);
  });

  it('runs `npx longrun run smoke` on compiled code', async () => {
    const help = await sh(['npx', 'longrun', '--help'], project);
    expect(help.code, help.output).toBe(0);
    expect(help.output).toContain('Usage: longrun <command>');
    const run = await sh(['npx', 'longrun', 'run', 'smoke'], project);
    expect(run.code, run.output).toBe(0);
    expect(readdirSync(join(project, 'reports')).some((d) => d.endsWith('-smoke'))).toBe(true);
  }, 300_000);

  it('writes `longrun scenario new` into the project, not into node_modules, and runs it from there', async () => {
    const made = await sh(['npx', 'longrun', 'scenario', 'new', 'my-incident', '--from', 'smoke'], project);
    expect(made.code, made.output).toBe(0);
    expect(existsSync(join(project, 'scenarios/my-incident.yaml'))).toBe(true);
    expect(existsSync(join(project, 'node_modules/longrun/scenarios/my-incident.yaml')), 'written into the installed package').toBe(false);
    const valid = await sh(['npx', 'longrun', 'scenario', 'validate', 'scenarios/my-incident.yaml'], project);
    expect(valid.code, valid.output).toBe(0);
  });

  it('is a library for plain JavaScript: runScenario, and the checks and mocks alone', async () => {
    writeFileSync(
      join(project, 'use.js'),
      [
        "import { resolveScenario, runScenario } from 'longrun';",
        "import { INVARIANTS } from 'longrun/checks';",
        "import { createMockProvider } from 'longrun/mocks';",
        "const summary = await runScenario(resolveScenario('smoke').scenario);",
        'console.log(JSON.stringify({ passed: summary.passed, runs: summary.runs.length, invariants: Object.keys(INVARIANTS).length, mocks: typeof createMockProvider }));',
        '',
      ].join('\n'),
    );
    const result = await sh(['node', 'use.js'], project);
    expect(result.code, result.output).toBe(0);
    const printed = JSON.parse(result.output.trim().split('\n').at(-1) ?? '{}');
    expect(printed).toMatchObject({ passed: true, runs: 2, mocks: 'function' });
    expect(printed.invariants).toBeGreaterThan(10);
  }, 300_000);

  it('types its exports for TypeScript users', async () => {
    writeFileSync(
      join(project, 'use.ts'),
      [
        "import { resolveScenario, runScenario, type Summary } from 'longrun';",
        "import { checkRun } from 'longrun/checks';",
        "import { createMockProvider } from 'longrun/mocks';",
        "const summary: Summary = await runScenario(resolveScenario('smoke').scenario);",
        'const passed: boolean = summary.passed;',
        '// @ts-expect-error: the types are real, not any',
        'const wrong: string = summary.passed;',
        'export { checkRun, createMockProvider, passed, wrong };',
        '',
      ].join('\n'),
    );
    const flags = ['--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022', '--skipLibCheck'];
    const result = await sh([process.execPath, TSC, ...flags, 'use.ts'], project);
    expect(result.code, result.output).toBe(0);
  }, 120_000);
});
