import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSummary, type Summary } from '../result/index.ts';
import { compareReports } from './compare-reports.ts';
import { comparisonText, valueText } from './comparison-text.ts';
import { readReport } from './read-report.ts';
import { defaultThresholds, parseThresholdList } from './thresholds.ts';

// A real soak's summary (test/compare/README.md says how it was made), and copies edited here.
const BASE = new URL('../../test/compare/base/summary.json', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'longrun-compare-'));
const base = () => parseSummary(JSON.parse(readFileSync(BASE, 'utf8')));

function edited(name: string, edit: (summary: Summary) => void): string {
  const summary = base();
  edit(summary);
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(summary));
  return file;
}

function compared(file: string, thresholds = defaultThresholds()) {
  return compareReports(readReport(BASE), readReport(file), thresholds);
}

function figure(comparison: ReturnType<typeof compared>, id: string) {
  const found = comparison.figures.find((f) => f.id === id);
  if (!found) throw new Error(`no figure ${id}`);
  return found;
}

describe('comparing two summaries', () => {
  it('finds nothing regressed between a report and itself, and judges every figure with a limit', () => {
    const comparison = compared(BASE);
    expect(comparison.regressed).toEqual([]);
    expect(comparison.notes).toEqual([]);
    expect(figure(comparison, 'turns-per-second')).toMatchObject({ base: 9.916094584286805, change: 0, status: 'within' });
    expect(figure(comparison, 'worker-rss-growth')).toMatchObject({ status: 'not-judged', maxRegression: 'off' });
    expect(figure(comparison, 'invariant-fails:payload.ceiling')).toMatchObject({ base: 0, new: 0, status: 'within' });
    expect(comparisonText(comparison).split('\n').at(-1)).toMatch(/^no figure regressed past its threshold \(\d+ judged\)$/);
  });

  it('names a slower p99, a lower throughput and a new failing invariant, and lets a change within its limit pass', () => {
    const file = edited('slower', (s) => {
      s.totals.latency.p99 *= 1.5;
      s.totals.latency.p50 *= 1.1;
      if (s.load) s.load.overall.turnsPerSecond *= 0.8;
      s.totals.violations = 1;
      const run = s.runs[0];
      if (run?.invariants[0]) run.invariants[0].status = 'fail';
    });
    const comparison = compared(file);
    expect(comparison.regressed).toEqual(['turns/s', 'turn latency p99, ms', 'violations', 'fails: payload.ceiling']);
    expect(figure(comparison, 'p99')).toMatchObject({ base: 50, new: 75, change: 25, changePercent: 50, maxRegression: '20%' });
    expect(figure(comparison, 'p50').status).toBe('within');
    expect(figure(comparison, 'turns-per-second')).toMatchObject({ status: 'regressed', better: 'higher' });
    const text = comparisonText(comparison);
    expect(text).toMatch(/^turn latency p99, ms +50 +75 +\+25 \(\+50%\) +20% +default +REGRESSED$/m);
    expect(text.split('\n').at(-1)).toBe(
      'regressed: turns/s -1.98 (-20%) (may worsen by 10%); turn latency p99, ms +25 (+50%) (may worsen by 20%); violations +1 (may worsen by 0); fails: payload.ceiling +1 (may worsen by 0)',
    );
  });

  it('takes a looser limit, an amount or off from the command line', () => {
    const file = edited('slower-p99', (s) => {
      s.totals.latency.p99 += 40;
    });
    expect(compared(file).regressed).toEqual(['turn latency p99, ms']);
    const thresholds = (list: string) => ({ ...defaultThresholds(), ...parseThresholdList(list) });
    expect(compared(file, thresholds('p99=100%')).regressed).toEqual([]);
    expect(compared(file, thresholds('p99=40')).regressed).toEqual([]);
    expect(compared(file, thresholds('p99=39')).regressed).toEqual(['turn latency p99, ms']);
    expect(figure(compared(file, thresholds('p99=off')), 'p99').status).toBe('not-judged');
  });

  it('says where each limit was set, in its row and in the verdict', () => {
    const file = edited('slower-p99-scenario', (s) => {
      s.totals.latency.p99 *= 1.5;
      s.totals.latency.p95 *= 1.5;
    });
    const limits = { ...defaultThresholds(), p99: { percent: 40 }, p95: { percent: 45 } };
    const comparison = compareReports(readReport(BASE), readReport(file), limits, { p99: 'scenario', p95: 'flag' });
    expect(figure(comparison, 'p99')).toMatchObject({ maxRegression: '40%', maxRegressionFrom: 'scenario', status: 'regressed' });
    expect(figure(comparison, 'p50').maxRegressionFrom).toBe('default');
    const text = comparisonText(comparison, { scenarioFile: 'scenarios/x.yaml', flag: true });
    expect(text.split('\n')[2]).toBe('           limits: scenario scenarios/x.yaml, then --max-regression, over the defaults');
    expect(text).toMatch(/^turn latency p99, ms +50 +75 +\+25 \(\+50%\) +40% +scenario +REGRESSED$/m);
    expect(text).toMatch(/^turn latency p95, ms +30 +45 +\+15 \(\+50%\) +45% +flag +REGRESSED$/m);
    expect(text.split('\n').at(-1)).toBe(
      'regressed: turn latency p95, ms +15 (+50%) (may worsen by 45%, --max-regression); turn latency p99, ms +25 (+50%) (may worsen by 40%, the scenario)',
    );
  });

  it('judges the input tokens per turn where both reports counted them, and only shows them where one did', () => {
    const tokens = (agent: number, compaction: number) => (s: Summary) => {
      s.totals.inputTokens = { agent, compaction };
    };
    const counted = edited('tokens', tokens(400_000, 16_000));
    const more = edited('more-tokens', tokens(440_000, 18_000));
    const some = edited('some-more-tokens', tokens(440_000, 16_000));
    const turns = base().totals.turns;
    expect(figure(compared(counted), 'tokens-per-turn')).toMatchObject({ base: undefined, new: 416_000 / turns, status: 'missing' });
    expect(compared(counted).regressed).toEqual([]);
    const worse = compareReports(readReport(counted), readReport(more), defaultThresholds());
    expect(figure(worse, 'tokens-per-turn')).toMatchObject({ label: 'input tokens per turn', unit: 'tokens', maxRegression: '10%' });
    expect(worse.regressed).toEqual(['input tokens per turn']);
    // +40,000 of 416,000 is 9.6%: within the default 10%.
    expect(compareReports(readReport(counted), readReport(some), defaultThresholds()).regressed).toEqual([]);
    expect(compared(BASE).figures.some((f) => f.key === 'tokens-per-turn')).toBe(false);
  });

  it('shows a figure only one report has without judging it, and notes a partial report and other seeds', () => {
    const file = edited('no-server', (s) => {
      if (s.load) delete s.load.server;
      s.partial = true;
      s.seed = 2;
    });
    const comparison = compared(file);
    expect(figure(comparison, 'server-rss-max')).toMatchObject({ new: undefined, status: 'missing' });
    expect(comparison.regressed).toEqual([]);
    expect(comparison.notes).toEqual([
      'the seeds differ (1 and 2): the runs are not the same plans',
      'new is partial (interrupted): its figures cover less',
    ]);
    expect(comparisonText(comparison)).toMatch(/^server RSS max, MiB +255 +n\/a +.*not in both$/m);
  });

  it('refuses reports of two scenarios, naming the files', () => {
    const file = edited('other', (s) => {
      s.scenario = 'smoke';
    });
    expect(() => compared(file)).toThrow(`${file}: scenario smoke, not gate-soak as ${BASE}: compare runs of one scenario`);
  });

  it('refuses a bench report against a summary', () => {
    const bench = join(dir, 'bench.json');
    writeFileSync(bench, JSON.stringify({ startedAt: '2026-12-03T20:00:00.000Z', commit: 'abc1234', machine: { cpus: 2 } }));
    expect(() => compared(bench)).toThrow(`${bench} is a bench report and ${BASE} a summary: compare like with like`);
  });
});

describe('a figure as the table shows it', () => {
  it('has three significant digits and its thousands grouped', () => {
    expect([0.6197, 9.916, 13, 162.4, 1048576, -3.17, 0].map(valueText)).toEqual(['0.62', '9.92', '13', '162', '1,048,576', '-3.17', '0']);
    expect(valueText(undefined)).toBe('n/a');
  });
});
