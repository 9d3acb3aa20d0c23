import { describe, expect, it } from 'vitest';
import { fixtureRun, fixtureSummary } from '../../result/testing/index.ts';
import { replayVerdict } from '../../runner/replay-verdict.ts';
import { resolveScenario } from '../../scenario/index.ts';
import { reproCommand, runCommand, soakCommand, startLine, summaryExit, unreadReplica } from './run.ts';

describe('run, soak and repro parse their flags', () => {
  const unset = { ui: false, 'ui-port': undefined, 'metrics-port': undefined };

  it('run: a scenario, --json and --report-dir (default reports)', () => {
    expect(runCommand.parse(['smoke'])).toEqual({ values: { json: false, 'report-dir': 'reports', ...unset }, positionals: ['smoke'] });
    expect(runCommand.parse(['s.yaml', '--json', '--report-dir', 'out']).values).toEqual({ json: true, 'report-dir': 'out', ...unset });
  });

  it('run: --ui with its port, --metrics-port, each port a number from 1 to 65535', () => {
    expect(runCommand.parse(['smoke', '--ui', '--ui-port', '8080', '--metrics-port', '9464']).values).toMatchObject({
      ui: true,
      'ui-port': 8080,
      'metrics-port': 9464,
    });
    expect(() => runCommand.parse(['smoke', '--metrics-port', '70000'])).toThrow('--metrics-port 70000: want a port from 1 to 65535');
  });

  it('run and repro refuse --duration, which only soak uses', () => {
    expect(() => runCommand.parse(['smoke', '--duration', '1m'])).toThrow(
      'unknown option --duration: this command takes --json, --report-dir, --ui, --ui-port, --metrics-port',
    );
    expect(() => reproCommand.parse(['tmprl1103', '--duration', '1m'])).toThrow('unknown option --duration');
  });

  it('soak: --duration is required and parsed to milliseconds', () => {
    expect(soakCommand.parse(['nightly-soak', '--duration', '10m']).values).toEqual({
      json: false,
      'report-dir': 'reports',
      ...unset,
      duration: 600_000,
    });
    expect(soakCommand.parse(['s', '--duration=1.5s']).values.duration).toBe(1500);
    expect(() => soakCommand.parse(['s'])).toThrow('--duration is required');
    expect(() => soakCommand.parse(['s', '--duration', 'soon'])).toThrow('--duration soon: want a positive duration like 90s, 10m or 1h');
    expect(() => soakCommand.parse(['s', '--duration', '0s'])).toThrow('--duration 0s: want a positive duration');
  });

  it('run and soak: --mock-replicas, each replica once, and a list with an entry that is no http(s) URL refused', () => {
    expect(runCommand.parse(['smoke', '--mock-replicas', 'http://10.0.0.7:8700/,http://10.0.0.8:8700']).values['mock-replicas']).toEqual([
      'http://10.0.0.7:8700',
      'http://10.0.0.8:8700',
    ]);
    expect(soakCommand.parse(['s', '--duration', '1m', '--mock-replicas=http://a:8700']).values['mock-replicas']).toEqual([
      'http://a:8700',
    ]);
    expect(runCommand.parse(['smoke']).values['mock-replicas']).toBeUndefined();
    expect(() => runCommand.parse(['smoke', '--mock-replicas', 'http://a:8700,10.0.0.8:8700'])).toThrow(
      '--mock-replicas http://a:8700,10.0.0.8:8700: want http(s) URLs of `longrun mock-server`s, comma-separated',
    );
  });

  it('takes exactly one scenario or incident', () => {
    expect(() => runCommand.parse([])).toThrow('missing the scenario');
    expect(() => runCommand.parse(['a', 'b'])).toThrow('unexpected argument "b"');
    expect(() => reproCommand.parse([])).toThrow('missing the incident (tmprl1103 or history-size or history-count)');
  });

  it('repro refuses an unknown incident before it starts anything', async () => {
    await expect(reproCommand.run(['tmprl9999'])).rejects.toThrow(
      'unknown incident "tmprl9999" (known: tmprl1103, history-size, history-count)',
    );
  });
});

describe('the exit code of a run', () => {
  const run = fixtureRun({ runId: 'py-run-0001', binary: 'v1', turns: 3, growthBytes: 1_000, compaction: 'none' });
  const notReplayed = {
    ...run,
    invariants: [
      ...run.invariants,
      replayVerdict([
        { binary: 'v1', errors: [], notReplayed: { why: 'its replayer (`python replay.py`) exited with SIGABRT after 2.1 s', stderr: [] } },
      ]),
    ],
  };

  it('is 0 passed, 1 not, and 2 when a run could not be replayed (the report is written all the same)', () => {
    expect(summaryExit(fixtureSummary([run], { passed: true }))).toBe(0);
    expect(summaryExit(fixtureSummary([run], { passed: false }))).toBe(1);
    expect(summaryExit(fixtureSummary([notReplayed], { passed: false }))).toBe(2);
  });

  it('is 2, its replica named on one line, when a mock replica could not be read for a run (the report is written all the same)', () => {
    const why = 'the requests could not be gathered: mock replica http://10.0.0.8:8700/longrun/records?run=r-1: fetch failed';
    const unread = {
      ...run,
      invariants: [...run.invariants, { id: 'requests.accepted' as const, status: 'fail' as const, evidence: [why] }],
    };
    const refused = {
      ...run,
      invariants: [
        ...run.invariants,
        { id: 'requests.accepted' as const, status: 'fail' as const, evidence: ['agent model request refused'] },
      ],
    };
    expect(summaryExit(fixtureSummary([run, unread], { passed: false }))).toBe(2);
    expect(unreadReplica(fixtureSummary([run, unread], { passed: false }))).toBe(why);
    expect(summaryExit(fixtureSummary([refused], { passed: false }))).toBe(1);
    expect(unreadReplica(fixtureSummary([refused], { passed: false }))).toBeUndefined();
  });

  it('is 130 when a signal cut the invocation short: an interrupted run is never read as a regression', () => {
    expect(summaryExit(fixtureSummary([run], { passed: false, partial: true }))).toBe(130);
    expect(summaryExit(fixtureSummary([notReplayed], { passed: false, partial: true }))).toBe(130);
  });
});

describe('the line a run opens with', () => {
  it("names the scenario with its description's first line, a hostile one's controls escaped", () => {
    const { scenario } = resolveScenario('smoke');
    expect(startLine({ ...scenario, description: 'a\u001B]0;pwned\u0007 test\nsecond line' })).toBe(
      'longrun: smoke: a\\u001B]0;pwned\\u0007 test',
    );
    expect(startLine({ ...scenario, description: '' })).toBe('longrun: smoke');
  });
});
