/**
 * The README's quick start in a clean clone of this repository, on a PATH with no Chromium and
 * no CHROMIUM_PATH: `npm install`, `npm start`, and the test that needs a browser (the report
 * opened in headless Chromium, which comes from npm). The whole `npm test` is not run here: it
 * would run this file again; CI runs it on a clean clone (`.ci/run`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BROWSERS = ['chromium', 'chromium-browser', 'google-chrome', 'chrome'];

const work = mkdtempSync(join(tmpdir(), 'longrun-quick-start-'));

/**
 * The PATH with every folder that holds a browser (a machine may have /usr/bin/chromium) replaced
 * by a shadow folder of links to everything else in it, so node, npm and git stay found.
 */
function pathWithoutChromium(): string {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((dir, index) => {
      if (!BROWSERS.some((name) => existsSync(join(dir, name)))) return dir;
      const shadow = join(work, `path-${index}`);
      mkdirSync(shadow);
      for (const entry of readdirSync(dir)) if (!BROWSERS.includes(entry)) symlinkSync(join(dir, entry), join(shadow, entry));
      return shadow;
    })
    .join(delimiter);
}

const clone = join(work, 'longrun');
const { CHROMIUM_PATH: _, ...inherited } = process.env;
const env = { ...inherited, PATH: pathWithoutChromium() };

function npm(args: string[], timeoutMs: number) {
  return spawnSync('npm', args, { cwd: clone, env, encoding: 'utf8', timeout: timeoutMs });
}

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the README's quick start, with no Chromium on the machine's PATH", () => {
  it('installs, runs smoke and opens a report in the browser npm brought', { timeout: 1_800_000 }, () => {
    expect(spawnSync('sh', ['-c', `command -v ${BROWSERS.join(' || command -v ')}`], { env }).status).not.toBe(0);
    execFileSync('git', ['clone', '--quiet', ROOT, clone]);

    // A cold server build takes minutes; a warm one (the shared cache) seconds.
    const install = npm(['install', '--no-audit', '--no-fund'], 1_500_000);
    expect(install.status, install.stderr.slice(-2000)).toBe(0);

    const start = npm(['start'], 180_000);
    expect(start.status, start.stderr.slice(-2000)).toBe(0);
    expect(start.stdout).toMatch(/longrun smoke: PASSED/);
    expect(readdirSync(join(clone, 'reports')).some((entry) => entry.endsWith('-smoke'))).toBe(true);

    const browser = npm(['exec', '--', 'vitest', 'run', 'src/report/report-browser.test.ts'], 300_000);
    expect(browser.status, browser.stdout.slice(-2000) + browser.stderr.slice(-2000)).toBe(0);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the ANSI colours vitest prints
    const summary = browser.stdout.replace(/\u001b\[[0-9;]*m/g, '');
    expect(summary).toMatch(/Tests\s+5 passed \(5\)/);
    expect(summary).not.toMatch(/skipped|failed/);
  });
});
