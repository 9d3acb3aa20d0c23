/**
 * `longrun compare` as a user runs it, on two real soak reports of one scenario (test/compare/:
 * the same soak twice, the second with every agent model call 150 ms slower): the slower one
 * regresses, exit 3, each figure named; bad input is one line and exit 2.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { longrun } from './longrun-cli.ts';

const BASE = 'test/compare/base';
const SLOWER = 'test/compare/slower/summary.json';
const ROOT = new URL('../', import.meta.url).pathname;

describe('longrun compare', () => {
  it('exits 3 on the slower soak and names each figure that regressed', async () => {
    const result = await longrun(['compare', BASE, SLOWER], { cwd: ROOT });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(3);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('gate-soak: base test/compare/base/summary.json (2026-12-03 23:35 UTC, 42.9 s, 26 runs, seed 1)');
    expect(result.stdout).toMatch(/^turn latency p99, ms +50 +298 +\+248 \(\+496%\) +20% +default +REGRESSED$/m);
    expect(result.stdout).toMatch(/^turns\/s +9\.92 +6\.74 +-3\.17 \(-32%\) +10% +default +REGRESSED$/m);
    // The request bytes per turn are the plan's: the same on both nights.
    expect(result.stdout).toMatch(/^request bytes per turn +24,560 +24,559 +-1\.12 \(0\.0%\) +10% +default$/m);
    expect(lines.at(-1)).toMatch(
      /^regressed: turns\/s -3\.17 \(-32%\) \(may worsen by 10%\); runs\/s .*; turn latency p99, ms \+248 \(\+496%\) \(may worsen by 20%\)$/,
    );
  });

  it('passes the same soak against itself, and the slower one with limits loose enough', async () => {
    expect((await longrun(['compare', BASE, BASE], { cwd: ROOT })).code).toBe(0);
    const loose = await longrun(
      ['compare', BASE, SLOWER, '--max-regression', 'turns-per-second=50%,runs-per-second=off,p50=off,p95=off,p99=300'],
      {
        cwd: ROOT,
      },
    );
    expect(loose.stdout.trimEnd().split('\n').at(-1)).toMatch(/^no figure regressed past its threshold \(\d+ judged\)$/);
    expect(loose.code).toBe(0);
  });

  it("takes the limits of the reports' scenario over the defaults, and --max-regression over both", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'longrun-compare-scenario-'));
    const gate = readFileSync(join(ROOT, 'test/compare/gate-soak.yaml'), 'utf8');
    const withCompare = (file: string, lines: string[]) => {
      writeFileSync(join(dir, file), `${gate}compare:\n  maxRegression:\n${lines.map((l) => `    ${l}\n`).join('')}`);
      return join(dir, file);
    };
    // Loose enough for a model 150 ms slower: what the defaults fail, this scenario passes.
    const loose = withCompare('loose.yaml', ["turns-per-second: '50%'", 'runs-per-second: off', 'p50: off', 'p95: off', 'p99: 300']);
    // The runs judged are off by default; this scenario holds them to 10% (18 after 26: -31%).
    const strict = withCompare('strict.yaml', ["runs: '10%'"]);
    // A report that names the loose scenario as its file, as a soak of it would.
    const named = join(dir, 'slower.json');
    writeFileSync(named, readFileSync(join(ROOT, SLOWER), 'utf8').replace('"test/compare/gate-soak.yaml"', JSON.stringify(loose)));

    const passed = await longrun(['compare', BASE, named], { cwd: ROOT });
    expect(passed.stderr).toBe('');
    expect(passed.stdout).toContain(`limits: scenario ${loose}, over the defaults`);
    expect(passed.stdout).toMatch(/^turn latency p99, ms +50 +298 +\+248 \(\+496%\) +300 ms +scenario$/m);
    expect(passed.stdout.trimEnd().split('\n').at(-1)).toMatch(/^no figure regressed past its threshold \(\d+ judged\)$/);
    expect(passed.code).toBe(0);

    // --scenario names one over the report's: the runs judged regress where the defaults leave them be.
    expect((await longrun(['compare', BASE, BASE, '--scenario', strict], { cwd: ROOT })).code).toBe(0);
    const stricter = await longrun(
      [
        'compare',
        BASE,
        SLOWER,
        '--scenario',
        strict,
        '--max-regression',
        'turns-per-second=off,runs-per-second=off,p50=off,p95=off,p99=off',
      ],
      { cwd: ROOT },
    );
    expect(stricter.stdout).toMatch(/^runs +26 +18 +-8 \(-31%\) +10% +scenario +REGRESSED$/m);
    expect(stricter.stdout.trimEnd().split('\n').at(-1)).toBe('regressed: runs -8 (-31%) (may worsen by 10%, the scenario)');
    expect(stricter.code).toBe(3);

    // The flag over the scenario: its p99 of 300 ms back to 20%.
    const flagged = await longrun(['compare', BASE, named, '--max-regression', 'p99=20%'], { cwd: ROOT });
    expect(flagged.stdout).toContain(`limits: scenario ${loose}, then --max-regression, over the defaults`);
    expect(flagged.stdout).toMatch(/^turn latency p95, ms +30 +179 +\+149 \(\+497%\) +off +scenario$/m);
    expect(flagged.stdout.trimEnd().split('\n').at(-1)).toBe(
      'regressed: turn latency p99, ms +248 (+496%) (may worsen by 20%, --max-regression)',
    );
    expect(flagged.code).toBe(3);
  });

  it('prints the comparison as JSON', async () => {
    const result = await longrun(['compare', BASE, SLOWER, '--json'], { cwd: ROOT });
    expect(result.code).toBe(3);
    const json = JSON.parse(result.stdout);
    expect(json.regressed).toEqual(['turns/s', 'runs/s', 'turn latency p50, ms', 'turn latency p95, ms', 'turn latency p99, ms']);
    expect(json.base).toMatchObject({ kind: 'summary', scenario: 'gate-soak', file: 'test/compare/base/summary.json' });
    expect(json.figures.find((f: { id: string }) => f.id === 'p99')).toEqual({
      id: 'p99',
      key: 'p99',
      label: 'turn latency p99, ms',
      unit: 'ms',
      better: 'lower',
      base: 50,
      new: 298,
      change: 248,
      changePercent: 496,
      maxRegression: '20%',
      maxRegressionFrom: 'default',
      status: 'regressed',
    });
    expect(json.maxRegression).toMatchObject({ p99: '20%', violations: '0', 'worker-rss-growth': 'off' });
    expect(json.maxRegressionFrom).toMatchObject({ p99: 'default', violations: 'default' });
  });

  it('says what is wrong with its input in one line, naming the file, and exits 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'longrun-compare-cli-'));
    const other = join(dir, 'summary.json');
    writeFileSync(other, readFileSync(join(ROOT, SLOWER), 'utf8').replace('"scenario": "gate-soak"', '"scenario": "smoke"'));
    const notJson = join(dir, 'notes.txt');
    writeFileSync(notJson, 'last night was fine\n');
    const badScenario = join(dir, 'bad.yaml');
    writeFileSync(badScenario, 'compare:\n  maxRegression:\n    p99: fast\nname: gate-soak\nseed: 1\nexpect: [{ on: v1, hold: all }]\n');
    const cases: [string[], string][] = [
      [[BASE, 'test/compare/nowhere'], 'longrun compare: test/compare/nowhere: no such file or folder'],
      [[BASE, notJson], `longrun compare: ${notJson}: not JSON (`],
      [
        [BASE, dir],
        `longrun compare: ${other}: scenario smoke, not gate-soak as test/compare/base/summary.json: compare runs of one scenario`,
      ],
      [[BASE, SLOWER, '--max-regression', 'p999=1%'], 'longrun compare: --max-regression "p999" is no figure (did you mean p99?)'],
      [[BASE], 'longrun compare: missing the two reports'],
      [[BASE, SLOWER, '--scenario', badScenario], `longrun compare: ${badScenario}:3:10: compare.maxRegression.p99: expected a percentage`],
      [[BASE, SLOWER, '--scenario', 'gate-sok'], 'longrun compare: --scenario: unknown scenario "gate-sok"'],
    ];
    for (const [args, line] of cases) {
      const result = await longrun(['compare', ...args], { cwd: ROOT });
      expect(result.stderr.trimEnd().split('\n'), args.join(' ')).toEqual([expect.stringContaining(line)]);
      expect(result.code, args.join(' ')).toBe(2);
    }
  });
});
