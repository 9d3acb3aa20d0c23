import { describe, expect, it } from 'vitest';
import type { LoadMetrics, ProcessMetrics } from '../result/index.ts';
import { fixtureRun, fixtureSummary, standardFixture } from '../result/testing/index.ts';
import { terminalControls } from '../shared/testing/terminal-controls.ts';
import { MAX_TEXT_RUNS, MIN_RSS_GROWTH_SPAN_MS, renderProgress, renderText } from './text.ts';

describe('renderText', () => {
  const text = renderText(standardFixture(), 'reports/2026-11-30T10-41-07Z-fixture');
  const lines = text.split('\n');

  it('opens with the verdict and says when it is partial', () => {
    expect(lines[0]).toBe('longrun fixture: FAILED (partial: interrupted before it finished)');
    expect(lines[1]).toContain('3 runs · 385 turns · 294 MB requested · 2 violations');
    expect(renderText(standardFixture({ partial: false })).split('\n')[0]).toBe('longrun fixture: FAILED');
  });

  it('gives each run a verdict, failing runs first, with the evidence of their violations', () => {
    const runLines = lines.filter((line) => /^ {2}(FAIL|pass) /.test(line));
    expect(runLines.map((line) => line.slice(2, 19))).toEqual(['FAIL v0-0001     ', 'pass current-0001', 'pass current-0002']);
    expect(runLines[0]).toContain('v0, terminated, 45 turns, 1 execution, incidents: tmprl1103');
    expect(runLines[2]).toContain('4 compactions (1 failed)');
    expect(text).toContain('payload.ceiling: event 57 ActivityTaskScheduled call_model input <messages> is 2,203,001 bytes');
    expect(text).toContain('wft.no-retry-loop: 12 WorkflowTaskFailed events');
  });

  it('shows control characters instead of sending them to the terminal', () => {
    expect(text).toContain("'2 MiB'\\u0007");
    expect(text).not.toContain('\u0007');
  });

  it('shows the controls a terminal acts on beyond C0: a C1 CSI and a bidirectional override', () => {
    const run = fixtureRun({ runId: 'run\u009B2J\u202E1', binary: 'v2', turns: 2, growthBytes: 1000, compaction: 'none' });
    const shown = renderText(fixtureSummary([run], { scenario: 'evil\u001B]0;x\u0007' }));
    expect(shown).toContain('run\\u009B2J\\u202E1');
    expect(shown).toContain('longrun evil\\u001B]0;x\\u0007:');
    expect(terminalControls(shown)).toEqual([]);
  });

  it('lists the expectations and where the report is', () => {
    expect(text).toContain('  UNMET tmprl1103 does not reproduce on v0: v0-0001: payload.ceiling failed');
    expect(text).toContain('  met   all invariants hold on current');
    expect(lines.at(-1)).toBe('report: reports/2026-11-30T10-41-07Z-fixture/report.html (summary.json, junit.xml beside it)');
  });

  it('fits one screen with hundreds of runs', () => {
    const many = renderText(standardFixture({ extraRuns: 300, extraRunTurns: 5 })).split('\n');
    expect(many.filter((line) => /^ {2}(FAIL|pass) /.test(line))).toHaveLength(MAX_TEXT_RUNS);
    expect(many).toContain('  ... and 293 more runs (0 failing, 293 passing)');
    expect(many.length).toBeLessThanOrEqual(30);
  });

  it("gives RSS growth per hour only when its samples span minutes, not a smoke's seconds", () => {
    const worker = (rssGrowthSpanMs: number): ProcessMetrics => ({
      samples: 8,
      pids: [7],
      rssBytes: { first: 200_000_000, last: 290_000_000, max: 300_000_000 },
      rssGrowthMbPerHour: 45058.8,
      rssGrowthSpanMs,
    });
    const withLoad = (metrics: ProcessMetrics) => {
      const load = {
        windowMs: 7000,
        warmupMs: 0,
        overall: { turnsPerSecond: 4, runsPerSecond: 0.3, historyBytesPerSecond: 1e5 },
        worker: metrics,
      };
      return renderText({ ...fixtureSummary([]), load: load as unknown as LoadMetrics }).split('\n');
    };
    const smoke = withLoad(worker(7000)).find((line) => line.startsWith('  worker: '));
    expect(smoke).toBe('  worker: RSS 200 MB -> 290 MB (max 300 MB)');
    const soak = withLoad(worker(MIN_RSS_GROWTH_SPAN_MS)).find((line) => line.startsWith('  worker: '));
    expect(soak).toBe('  worker: RSS 200 MB -> 290 MB (max 300 MB), growth 45058.8 MiB/h');
    const { rssGrowthSpanMs: _, ...unknownSpan } = worker(0);
    expect(withLoad(unknownSpan).find((line) => line.startsWith('  worker: '))).not.toContain('growth');
  });

  it("puts the database's memory (PSS) beside the server's RSS, only when there is one (server.persistence postgres)", () => {
    const metrics = (max: number): ProcessMetrics => ({ samples: 2, pids: [9], rssBytes: { first: max / 2, last: max, max } });
    const lines = (database?: ProcessMetrics) => {
      const load = {
        overall: { turnsPerSecond: 1, runsPerSecond: 0.1, historyBytesPerSecond: 1e4 },
        worker: metrics(1e8),
        server: metrics(3e8),
      };
      const text = renderText({ ...fixtureSummary([]), load: { ...load, ...(database ? { database } : {}) } as unknown as LoadMetrics });
      return text.split('\n').filter((line) => /^ {2}(server|database): /.test(line));
    };
    expect(lines(metrics(2e8))).toEqual(['  server: RSS 150 MB -> 300 MB (max 300 MB)', '  database: PSS 100 MB -> 200 MB (max 200 MB)']);
    expect(lines()).toEqual(['  server: RSS 150 MB -> 300 MB (max 300 MB)']);
  });

  it("puts each service beneath the server's sum when the server runs as one process per service", () => {
    const metrics = (max: number): ProcessMetrics => ({ samples: 2, pids: [9], rssBytes: { first: max / 2, last: max, max } });
    const load = {
      overall: { turnsPerSecond: 1, runsPerSecond: 0.1, historyBytesPerSecond: 1e4 },
      worker: metrics(1e8),
      server: metrics(4e8),
      services: { frontend: metrics(1e8), history: metrics(2e8) },
    };
    const text = renderText({ ...fixtureSummary([]), load: load as unknown as LoadMetrics });
    expect(text.split('\n').filter((line) => /^ {2}(server: | {2}\w+: )/.test(line))).toEqual([
      '  server: RSS 200 MB -> 400 MB (max 400 MB)',
      '    frontend: RSS 50 MB -> 100 MB (max 100 MB)',
      '    history: RSS 100 MB -> 200 MB (max 200 MB)',
    ]);
  });

  it('says when no run was judged', () => {
    expect(renderText(fixtureSummary([]))).toContain('runs: none judged');
  });
});

describe('renderProgress', () => {
  it('is one line with runs, turns, bytes, violations and time', () => {
    expect(
      renderProgress({
        runsDone: 12,
        runsStarted: 15,
        runsTotal: 100,
        turns: 3456,
        bytes: 1_234_567_890,
        violations: 0,
        elapsedMs: 62_000,
      }),
    ).toBe('runs 12/100 (3 in flight) · 3,456 turns · 1.23 GB · 0 violations · 1 min 02 s');
    expect(renderProgress({ runsDone: 12, runsStarted: 22, runsJudging: 2, turns: 0, bytes: 0, violations: 0, elapsedMs: 0 })).toBe(
      'runs 12 done (8 in flight, 2 being judged) · 0 turns · 0 B · 0 violations · 0 ms',
    );
  });

  it('counts runs done when the total is unknown (soak)', () => {
    expect(renderProgress({ runsDone: 1, turns: 1, bytes: 512, violations: 1, elapsedMs: 900 })).toBe(
      'runs 1 done · 1 turn · 512 B · 1 violation · 900 ms',
    );
  });

  it('names a bad field', () => {
    expect(() => renderProgress({ runsDone: 1, turns: Number.NaN, bytes: 0, violations: 0, elapsedMs: 0 })).toThrow(
      'renderProgress: turns must be a non-negative number, got NaN',
    );
  });
});

describe('renderText with runs no expectation accounts for', () => {
  it('lists each with its first evidence line, after the expectations', () => {
    const unexplained = Array.from({ length: MAX_TEXT_RUNS + 2 }, (_, i) => ({
      runId: `long-run-${i}`,
      binary: 'v0' as const,
      why: i === 0 ? 'ended failed: Error serializing to JSON: UnicodeEncodeError\u001b[31m' : 'journal.chain: seq 4 follows seq 2',
    }));
    const text = renderText(fixtureSummary([], { unexplained, passed: false }));
    const lines = text.split('\n');
    const at = lines.indexOf('runs no expectation accounts for (the scenario cannot pass):');
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toBe('  long-run-0 (v0): ended failed: Error serializing to JSON: UnicodeEncodeError\\u001B[31m');
    expect(lines[at + MAX_TEXT_RUNS + 1]).toBe('  ... and 2 more runs (all in summary.json)');
    expect(renderText(fixtureSummary([]))).not.toContain('accounts for');
  });
});

describe('renderText with runs that closed before their first model call', () => {
  it('puts each one line first, under the verdict, whole', () => {
    const line = `run py-run-0000: ToolsWorkflow failed before its first model call (no invoke_model_activity in its history): ${'x'.repeat(200)}; it was started with [{"runId":"py-run-0000"}] (target.external.args in scenarios/x.yaml is ["{{runInput}}"], the default: the contract's RunInput)`;
    const run = {
      ...fixtureRun({ runId: 'py-run-0000', turns: 1, growthBytes: 1_000, compaction: 'none', outcome: 'failed' }),
      earlyEnd: line,
    };
    const lines = renderText(fixtureSummary([run], { passed: false })).split('\n');
    expect(lines[2]).toBe(line);
    expect(lines[3]).toBe('runs:');
    expect(renderText(fixtureSummary([{ ...run, earlyEnd: undefined }]))).not.toContain('before its first model call');
  });
});
