import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ComparedReport } from './read-report.ts';
import { scenarioLimits } from './scenario-limits.ts';

const dir = mkdtempSync(join(tmpdir(), 'longrun-scenario-limits-'));
const builtIns = join(dir, 'built-in');
mkdirSync(builtIns);

/** A scenario named `name`, with `compare` lines (or none) from line 6 on. */
function scenarioFile(path: string, name: string, compare: string[] = []): string {
  writeFileSync(path, [`name: ${name}`, 'seed: 1', 'expect:', '  - on: v1', '    hold: all', ...compare].join('\n'));
  return path;
}

function report(scenarioFile?: string, scenario = 'gate-soak'): ComparedReport {
  return { file: 'summary.json', kind: 'summary', scenario, scenarioFile, seed: 1, partial: false, about: '', figures: [] };
}

const withP99 = scenarioFile(join(dir, 'p99.yaml'), 'gate-soak', ['compare:', '  maxRegression:', "    p99: '40%'"]);
const withViolations = scenarioFile(join(dir, 'violations.yaml'), 'gate-soak', ['compare:', '  maxRegression:', '    violations: 2']);
scenarioFile(join(builtIns, 'gate-soak.yaml'), 'gate-soak', ['compare:', '  maxRegression:', '    p50: off']);

describe("the limits of the reports' scenario", () => {
  it("reads the new report's scenario file first, then the baseline's", () => {
    expect(scenarioLimits(report(withViolations), report(withP99), undefined, builtIns)).toEqual({
      file: withP99,
      thresholds: { p99: { percent: 40 } },
      notes: [],
    });
    expect(scenarioLimits(report(withViolations), report(join(dir, 'gone.yaml')), undefined, builtIns).file).toBe(withViolations);
  });

  it('reads the one --scenario names over the one the reports name, by path or built-in name', () => {
    expect(scenarioLimits(report(withP99), report(withP99), withViolations, builtIns).thresholds).toEqual({ violations: { amount: 2 } });
    expect(scenarioLimits(report(withP99), report(withP99), 'gate-soak', builtIns).thresholds).toEqual({ p50: 'off' });
  });

  it('falls back on the built-in of the scenario name, and else on the defaults with a note', () => {
    expect(scenarioLimits(report(), report(), undefined, builtIns).thresholds).toEqual({ p50: 'off' });
    const gone = join(dir, 'elsewhere.yaml');
    expect(scenarioLimits(report(gone, 'mine'), report(gone, 'mine'), undefined, builtIns)).toEqual({
      file: undefined,
      thresholds: {},
      notes: [`the scenario file ${gone} is not here: default limits (--scenario FILE reads one)`],
    });
    expect(scenarioLimits(report(undefined, 'mine'), report(undefined, 'mine'), undefined, builtIns).notes).toEqual([
      'no scenario file for mine: default limits (--scenario FILE reads one)',
    ]);
  });

  it('notes a scenario of another name than the reports', () => {
    const other = scenarioFile(join(dir, 'other.yaml'), 'other');
    expect(scenarioLimits(report(), report(), other, builtIns)).toEqual({
      file: other,
      thresholds: {},
      notes: [`the scenario read (${other}) is other, the reports are of gate-soak`],
    });
  });

  it('refuses a scenario that does not load, or a name it does not know, in one line naming the file', () => {
    const bad = scenarioFile(join(dir, 'bad.yaml'), 'gate-soak', ['compare:', '  maxRegression:', '    p99: fast', '    p95: slow']);
    const refused = (named: string | undefined, file?: string) => {
      try {
        scenarioLimits(report(file), report(file), named, builtIns);
      } catch (error) {
        expect((error as Error).name).toBe('ReportInputError');
        return (error as Error).message;
      }
      throw new Error('expected a ReportInputError');
    };
    expect(refused(undefined, bad)).toBe(
      `${bad}:8:10: compare.maxRegression.p99: expected a percentage of the baseline (10%), an amount in the figure's unit, or off, got "fast" (and 1 more: longrun scenario validate lists them)`,
    );
    expect(refused(join(dir, 'nowhere.yaml'))).toBe(`${join(dir, 'nowhere.yaml')}: no such file`);
    expect(refused('gate-sok')).toMatch(/^--scenario: unknown scenario "gate-sok" \(did you mean gate-soak\?\)/);
  });
});
