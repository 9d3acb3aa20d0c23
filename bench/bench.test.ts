/** The benchmark's pure parts (arithmetic, verdicts, arguments and tables) and its reading of /proc. Nothing here is timed. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { planRun, runMessages } from '../mocks/index.ts';
import { buildAgentRequest } from '../src/kernel/index.ts';
import { BenchUsageError, MONTH_CONCURRENCY, PRODUCTION_BYTES_PER_TURN, PRODUCTION_MONTH_RUNS, parseBenchArgs } from './bench-args.ts';
import { type BenchReport, reportTables } from './bench-report.ts';
import { peerShareOfCeiling, shareOfCeiling } from './ceiling/run-ceiling.ts';
import { judgingBreakdown, judgingRatio } from './judging-breakdown.ts';
import type { Meter } from './meter.ts';
import { ProcessPeaks, peakRssBytes } from './proc-stat.ts';
import { bottleneck, CPU_OVERHEAD_TARGET, median, overheadRatio, PEER_CPU_TARGET } from './stats.ts';
import { formatNumber, formatTable } from './table.ts';
import { appendOnlyRequestBytes, tokensOf } from './token-accounting.ts';

describe('overheadRatio', () => {
  it('takes the median of the paired ratios, not the ratio of the medians', () => {
    const result = overheadRatio([
      { longrun: 120, baseline: 100 },
      { longrun: 300, baseline: 100 },
      { longrun: 110, baseline: 100 },
      { longrun: 90, baseline: 50 },
      { longrun: 100, baseline: 100 },
    ]);
    expect(result.ratio).toBeCloseTo(1.2);
    expect(result.minRatio).toBeCloseTo(1);
    expect(result.maxRatio).toBeCloseTo(3);
    expect(result.longrun).toBe(110);
    expect(result.baseline).toBe(100);
    expect(result.withinTarget).toBe(false);
  });

  it('meets the target at or under it', () => {
    expect(overheadRatio([{ longrun: 105, baseline: 100 }]).withinTarget).toBe(true);
    expect(overheadRatio([{ longrun: 106, baseline: 100 }]).withinTarget).toBe(false);
    expect(overheadRatio([{ longrun: 2, baseline: 1 }], 3).withinTarget).toBe(true);
  });

  it('refuses no pairs and a baseline that took no time, naming the pair', () => {
    expect(() => overheadRatio([])).toThrow('needs at least one pair');
    expect(() =>
      overheadRatio([
        { longrun: 1, baseline: 1 },
        { longrun: 1, baseline: 0 },
      ]),
    ).toThrow('pairs[1].baseline: must be positive, got 0');
  });

  it('median handles even and odd counts without reordering its input', () => {
    const values = [4, 1, 3, 2];
    expect(median(values)).toBe(2.5);
    expect(values).toEqual([4, 1, 3, 2]);
    expect(median([5, 1, 3])).toBe(3);
    expect(median([])).toBeNaN();
  });
});

describe('bottleneck', () => {
  const evidence = { wallMs: 10_000, cores: 2, loadAverage: 0.5 };

  it('names a saturated main thread first', () => {
    const result = bottleneck({ ...evidence, selfCpuMs: 12_000, mainThreadCpuMs: 9_500, serverCpuMs: 3_000 });
    expect(result.limit).toBe('harness main thread');
    expect(result.mainThread).toBeCloseTo(0.95);
    expect(result.workflowThreads).toBeCloseTo(0.25);
  });

  it('tells a busy server from a busy harness when the cores are full', () => {
    expect(bottleneck({ ...evidence, selfCpuMs: 6_000, mainThreadCpuMs: 5_000, serverCpuMs: 12_000 }).limit).toBe('server');
    expect(bottleneck({ ...evidence, selfCpuMs: 14_000, mainThreadCpuMs: 8_000, serverCpuMs: 4_000 }).limit).toBe('machine CPU');
  });

  it('blames other work when the cores are not ours but the load is high, else the round trips', () => {
    const idle = { ...evidence, selfCpuMs: 3_000, mainThreadCpuMs: 1_000, serverCpuMs: 2_000 };
    expect(bottleneck({ ...idle, loadAverage: 7.5 }).limit).toBe('machine CPU');
    expect(bottleneck({ ...idle, loadAverage: 7.5 }).why).toContain('load 7.5');
    expect(bottleneck(idle).limit).toBe('round trips');
  });
});

describe('shareOfCeiling', () => {
  it("sets longrun's best history rate at each number in flight against the bare server's best there", () => {
    const ceiling = [
      { inFlight: 1, historyMBps: 10 },
      { inFlight: 1, historyMBps: 20 },
      { inFlight: 4, historyMBps: 40 },
      { inFlight: 16, historyMBps: 50 },
    ];
    const longrun = [
      { concurrency: 1, historyMBps: 5 },
      { concurrency: 1, historyMBps: 8 },
      { concurrency: 4, historyMBps: 30 },
    ];
    expect(shareOfCeiling(ceiling, longrun)).toEqual([
      { inFlight: 1, longrunMBps: 8, ceilingMBps: 20, share: 0.4 },
      { inFlight: 4, longrunMBps: 30, ceilingMBps: 40, share: 0.75 },
    ]);
  });
});

describe('peerShareOfCeiling', () => {
  it("sets the peer's best history rate against the ceiling's, and longrun's against the peer's, at each number in flight", () => {
    const ceiling = [
      { inFlight: 4, historyMBps: 40 },
      { inFlight: 16, historyMBps: 50 },
    ];
    const peer = [{ concurrency: 16, historyMBps: 20 }];
    const longrun = [
      { concurrency: 4, historyMBps: 8 },
      { concurrency: 16, historyMBps: 10 },
    ];
    expect(peerShareOfCeiling(ceiling, peer, longrun)).toEqual([
      { inFlight: 16, peerMBps: 20, ceilingMBps: 50, share: 0.4, longrunOverPeer: 0.5 },
    ]);
    expect(peerShareOfCeiling(ceiling, peer, [])).toEqual([{ inFlight: 16, peerMBps: 20, ceilingMBps: 50, share: 0.4 }]);
  });
});

describe('parseBenchArgs', () => {
  it('runs overhead, throughput and scale by default, the month only when asked', () => {
    const defaults = parseBenchArgs([]);
    expect(defaults).toMatchObject({
      sections: ['ceiling', 'overhead', 'judging', 'steady', 'throughput', 'scale', 'repro', 'startup'],
      repetitions: 5,
      windowSeconds: 60,
    });
    expect(parseBenchArgs(['--month'])).toMatchObject({
      sections: ['month'],
      monthRuns: PRODUCTION_MONTH_RUNS,
      monthConcurrency: MONTH_CONCURRENCY,
      monthBytesPerTurn: PRODUCTION_BYTES_PER_TURN,
    });
    expect(parseBenchArgs(['--month', '--runs', '50', '--concurrency', '2', '--bytes-per-turn', '6000'])).toMatchObject({
      monthRuns: 50,
      monthConcurrency: 2,
      monthBytesPerTurn: 6000,
    });
    expect(parseBenchArgs(['--month'])).toMatchObject({ monthPeerPairs: 0 });
    expect(parseBenchArgs(['--month', '--peer'])).toMatchObject({ sections: ['month'], monthPeerPairs: 1 });
    expect(parseBenchArgs(['--month', '--peer', '--repetitions', '2', '--runs', '100'])).toMatchObject({
      monthPeerPairs: 2,
      monthRuns: 100,
    });
    expect(parseBenchArgs(['--only', 'scale,overhead'])).toMatchObject({ sections: ['scale', 'overhead'] });
    expect(parseBenchArgs(['--only', 'steady'])).toMatchObject({ sections: ['steady'] });
    expect(parseBenchArgs(['--help'])).toBe('help');
  });

  it('names the flag in one line when the input is bad', () => {
    const error = (argv: string[]) => {
      try {
        parseBenchArgs(argv);
      } catch (e) {
        expect(e).toBeInstanceOf(BenchUsageError);
        return (e as Error).message;
      }
      throw new Error(`no error for ${argv.join(' ')}`);
    };
    expect(error(['--only', 'overhead,speed'])).toBe(
      '--only: unknown section "speed" (sections: ceiling, overhead, judging, steady, throughput, scale, repro, startup)',
    );
    expect(error(['--month', '--runs', '0'])).toBe('--runs: must be an integer >= 1, got "0"');
    expect(error(['--window', '1.5'])).toBe('--window: must be an integer >= 0, got "1.5"');
    expect(error(['--runs', '10'])).toBe('--runs: only with --month');
    expect(error(['--bytes-per-turn', '9000'])).toBe('--bytes-per-turn: only with --month');
    expect(error(['--peer'])).toBe('--peer: only with --month');
    expect(error(['--month', '--peer', '--repetitions', '0'])).toBe('--repetitions: must be an integer >= 1, got "0"');
    expect(error(['--month', '--only', 'scale'])).toContain('--only');
    expect(error(['--fast'])).toContain("'--fast'");
  });
});

describe('appendOnlyRequestBytes', () => {
  it('is the sum of every turn’s request, within the plan’s estimate of text escaping', () => {
    const plan = planRun({ seed: 7, runId: 'bench-run-0003', shape: { scale: 0.02, overrides: { targetTokens: 56_000 } } });
    const messages = runMessages(plan);
    let exact = 0;
    let sent = 2;
    for (const turn of plan.turns) {
      const request = buildAgentRequest({ runId: plan.runId, turn: turn.turn, model: 'm', messages: messages.slice(0, sent) });
      exact += Buffer.byteLength(JSON.stringify(request));
      sent += 1 + turn.calls.length;
    }
    const estimate = appendOnlyRequestBytes(plan, 'm');
    expect(Math.abs(estimate - exact) / exact).toBeLessThan(0.005);
    expect(tokensOf(2.7e6)).toBeCloseTo(1e6);
  });
});

describe('peak RSS', () => {
  it('reads the VmHWM line of /proc/<pid>/status as bytes, not VmRSS', () => {
    const status = 'Name:\tnode\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\n';
    expect(peakRssBytes(status)).toBe(204800 * 1024);
    expect(peakRssBytes('Name:\tnode\n')).toBe(0);
  });

  it("keeps a child process's peak and CPU after it has exited", async () => {
    // 200 MB touched, then a pause so that it is read while it lives; after its exit nothing can be read.
    const child = spawn(process.execPath, ['-e', 'Buffer.alloc(2e8, 1); setTimeout(() => {}, 600);']);
    const peaks = new ProcessPeaks();
    peaks.add(child.pid as number, 'child');
    await once(child, 'exit');
    peaks.stop();
    const [peak] = peaks.processes;
    expect(peak?.what).toBe('child');
    expect(peak?.peakRssBytes).toBeGreaterThan(2e8);
    expect(peak?.cpuMs).toBeGreaterThan(0);
  });
});

describe('tables', () => {
  it('pads columns, right-aligns numbers and refuses a short row', () => {
    const text = formatTable({
      title: 'T',
      headers: ['name', 'turns/s'],
      rows: [
        ['p50', '6.5'],
        ['max x16', '11.0'],
      ],
      notes: ['a note'],
    });
    expect(text).toBe(['T', 'name     turns/s', '-------  -------', 'p50          6.5', 'max x16     11.0', '  a note'].join('\n'));
    expect(() => formatTable({ title: 'T', headers: ['a', 'b'], rows: [['1']] })).toThrow('T: rows[0] has 1 cells, the headers 2');
  });

  it('formats numbers with grouped thousands and fixed decimals', () => {
    expect(formatNumber(1234.56)).toBe('1,234.6');
    expect(formatNumber(0.5, 2)).toBe('0.50');
  });

  it('renders every section of a report', () => {
    const meter: Meter = {
      wallMs: 72_000,
      selfCpuMs: 30_000,
      mainThreadCpuMs: 20_000,
      serverCpuMs: 20_000,
      selfPeakRssBytes: 2e9,
      serverPeakRssBytes: 1e9,
    };
    const limits = bottleneck({ ...meter, cores: 2, loadAverage: 1 });
    const sample = (variant: 'longrun' | 'kernel' | 'baseline' | 'peer', msPerTurn: number) => ({
      variant,
      repetition: 0,
      turns: 50,
      msPerTurn,
      cpuMsPerTurn: 40,
      meter,
    });
    const report: BenchReport = {
      startedAt: '',
      finishedAt: '',
      commit: 'abc',
      machine: { cpus: 2, memoryBytes: 1, node: 'v20', loadAtStart: [], loadAtEnd: [] },
      overhead: {
        options: { repetitions: 1, runs: 2, concurrency: 1, targetTokens: 56_000 },
        samples: [sample('longrun', 130), sample('kernel', 120), sample('baseline', 100), sample('peer', 125)],
        ratio: overheadRatio([{ longrun: 130, baseline: 100 }]),
        cpuRatio: overheadRatio([{ longrun: 40, baseline: 40 }], CPU_OVERHEAD_TARGET),
        harness: {
          ratio: overheadRatio([{ longrun: 130, baseline: 120 }]),
          cpuRatio: overheadRatio([{ longrun: 40, baseline: 40 }], CPU_OVERHEAD_TARGET),
        },
        kernel: {
          ratio: overheadRatio([{ longrun: 120, baseline: 100 }]),
          cpuRatio: overheadRatio([{ longrun: 40, baseline: 40 }], CPU_OVERHEAD_TARGET),
        },
        peer: {
          ratio: overheadRatio([{ longrun: 130, baseline: 125 }]),
          cpuRatio: overheadRatio([{ longrun: 44, baseline: 40 }], PEER_CPU_TARGET),
        },
      },
      judging: {
        options: { runs: 4, concurrency: 2, targetTokens: 56_000, repetitions: 1 },
        turns: 80,
        historyBytes: 4e6,
        repetitions: [{ judgingCpuMs: 600, bareReplayCpuMs: 400, parts: { fetch: 100, replay: 420 }, serverFetchCpuMs: 90 }],
        replayRatio: judgingRatio([{ judgingCpuMs: 600, bareReplayCpuMs: 400, parts: {}, serverFetchCpuMs: 0 }]),
        breakdown: judgingBreakdown([{ judgingCpuMs: 600, bareReplayCpuMs: 400, parts: { fetch: 100, replay: 420 }, serverFetchCpuMs: 0 }]),
      },
      steady: {
        options: { windowSeconds: 60, warmUpSeconds: 10, concurrency: 4, targetTokens: 56_000, pairs: 1 },
        samples: [
          { side: 'longrun', pair: 0, turns: 1200, seconds: 60, turnsPerSecond: 20, cpuMsPerTurn: 50, meter, bottleneck: limits },
          { side: 'peer', pair: 0, turns: 1260, seconds: 60, turnsPerSecond: 21, cpuMsPerTurn: 45, meter, bottleneck: limits },
        ],
        ratio: overheadRatio([{ longrun: 1000 / 20, baseline: 1000 / 21 }]),
      },
      throughput: [
        {
          side: 'longrun',
          size: 'max',
          targetTokens: 730_000,
          concurrency: 4,
          runs: 4,
          runsCompleted: 2,
          stopped: true,
          turns: 513,
          historyBytes: 2e8,
          requestBytes: 2e8,
          turnsPerSecond: 5.5,
          historyMBps: 2.59,
          meter,
          bottleneck: limits,
        },
      ],
      scale: {
        targetTokens: 730_000,
        passed: true,
        turns: 300,
        requestBytes: 167.6e6,
        largestRequestBytes: 1.1e6,
        compactions: 1,
        executions: [
          { historyBytes: 139.1e6, events: 2000, closedBy: 'continued-as-new' },
          { historyBytes: 34.3e6, events: 500, closedBy: 'completed' },
        ],
        fullCycle: { historyBytes: 139.1e6, turns: 260, budgetBytes: 134_217_728 },
        workerProcesses: [
          { what: 'v1 worker (pid 11)', peakRssBytes: 300e6, cpuMs: 30_000 },
          { what: 'activities worker (pid 12)', peakRssBytes: 150e6, cpuMs: 10_000 },
        ],
        workerPeakRssBytes: 450e6,
        longrunPeakRssBytes: 380e6,
        meter,
        bottleneck: limits,
      },
      month: {
        partial: false,
        wallSeconds: 72,
        runs: 1067,
        runsCompleted: 1067,
        concurrency: 4,
        bytesPerTurn: 6000,
        passed: true,
        runsWithViolations: 0,
        turns: 40_000,
        compactions: 7,
        continuedAsNew: 30,
        historyBytes: 9e9,
        tokens: { agentWithCompaction: 3.7e9, compaction: 1e6, withoutCompaction: 3.84e9, production: 1.76e9 },
        load: { atStart: 1, max: 9, mean: 5, atEnd: 2 },
        meter,
        bottleneck: limits,
        sides: [
          { side: 'longrun', pair: 0, wallSeconds: 72, turns: 40_000, historyBytes: 9e9, meter, bottleneck: limits },
          { side: 'peer', pair: 0, wallSeconds: 60, turns: 40_000, historyBytes: 8.7e9, meter, bottleneck: limits },
        ],
        peerWallSeconds: 60,
        peerRatio: 1.2,
      },
      ceiling: {
        activitiesPerSecond: 310,
        historyMBps: 61.5,
        samples: [
          {
            payloadBytes: 1_900_000,
            inFlight: 4,
            activities: 190,
            activitiesPerSecond: 31.6,
            historyMBps: 61.5,
            meter,
            bottleneck: limits,
          },
        ],
        longrunShare: [{ inFlight: 4, longrunMBps: 12.3, ceilingMBps: 61.5, share: 0.2 }],
        peerShare: [{ inFlight: 4, peerMBps: 12.3, ceilingMBps: 61.5, share: 0.2, longrunOverPeer: 1 }],
      },
      repro: {
        tmprl1103Seconds: 8.4,
        historySizeSeconds: 12.1,
        source: { tmprl1103Seconds: 11.2, historySizeSeconds: 14.9 },
        runs: [
          { incident: 'tmprl1103', form: 'compiled', seconds: 8.4, exitCode: 0 },
          { incident: 'tmprl1103', form: 'source', seconds: 11.2, exitCode: 0 },
          { incident: 'history-size', form: 'compiled', seconds: 12.1, exitCode: 0 },
        ],
      },
    };
    const text = reportTables(report).map(formatTable).join('\n');
    expect(text).toContain('against the bare baseline: ratio 1.30 (median of pairs; 1.30-1.30), target <= 1.05: NOT met');
    expect(text).toContain(
      "against the peer (the bare kernel, then the SDK's replay of its histories): 1.04 (median of pairs; 1.04-1.04), target <= 1.05: met",
    );
    expect(text).toContain('peer CPU ratio 1.10 (44.0 against 40.0 ms per turn), target <= 1.1: met');
    expect(text).toMatch(/1\s+130\.0\s+120\.0\s+100\.0\s+125\.0\s+1\.30\s+1\.04\s+50/);
    expect(text).toContain('CPU ratio 1.00 (this process and the server, per turn: 40.0 against 40.0 ms), target <= 1.15: met');
    expect(text).toContain('of which the harness (longrun against the bare kernel): 1.08 (median of pairs; 1.08-1.08), CPU 1.00');
    expect(text).toContain(
      "and the kernel's own workflow (the bare kernel against the baseline): 1.20 (median of pairs; 1.20-1.20), CPU 1.00",
    );
    expect(text).toContain(
      "judging against the SDK's bare replay of the same histories: 1.50 (median of the repetitions; 1.50-1.50), target <= 1.15: NOT met",
    );
    expect(text).toMatch(/replay\s+420\.0\s+105%/);
    expect(text).toMatch(/rest\s+80\.0\s+20%/);
    expect(text).toContain("the server's CPU serving the judging's fetch, beside it: 90.0-90.0 ms");
    expect(text).toMatch(/peer\s+1\s+1260\s+60\.0\s+21\.00\s+45\.0/);
    expect(text).toContain('wall per turn: 1.05 (median of pairs; 1.05-1.05), target <= 1.05: met');
    expect(text).toMatch(/max \(730k\) window\s+4\s+513\s+5\.5\s+2\.59/);
    expect(text).toContain('260 turns, 139 MB of history, past the 128 MiB budget');
    expect(text).toContain('450 MB (target: under 350 MB: NOT met); v1 worker (pid 11) 300 MB, activities worker (pid 12) 150 MB');
    expect(text).toMatch(/peak RSS longrun \(mocks, judging, replay\)\s+380 MB \(target: under 400 MB: met\)/);
    expect(text).toMatch(/input tokens without compaction\s+3\.840 B/);
    expect(text).toContain('1 min 12 s');
    expect(text).toContain('A production month: 1067 runs, 4 at once, 6,000 context bytes per turn');
    expect(text).toMatch(/the peer \(bare kernel, then the SDK's replay\)\s+1 min 00 s; longrun\/peer 1\.20/);
    expect(text).toMatch(/peer\s+1\s+1 min 00 s\s+40000/);
    expect(text).toContain("4 in flight: the peer (bare kernel, then the SDK's replay) 12.30 MB/s, 20% of the ceiling; longrun/peer 1.00");
    expect(text).toMatch(/1\.9 MB\s+4\s+190\s+31\.6\s+61\.50/);
    expect(text).toContain('ceiling: 310.0 activities/s, 61.50 history MB/s');
    expect(text).toContain("4 in flight: longrun 12.30 MB/s, 20% of the bare server's 61.50 MB/s");
    expect(text).toMatch(/tmprl1103\s+compiled\s+8\.4 s\s+0 \(reproduced, fixed on v1\)\s+under 10 s: met/);
    expect(text).toMatch(/tmprl1103\s+source\s+11\.2 s\s+0 .*under 10 s: NOT met/);
    expect(text).toMatch(/history-size\s+compiled\s+12\.1 s\s+0 .*under 10 s: NOT met/);
  });
});
