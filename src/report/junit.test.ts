import { describe, expect, it } from 'vitest';
import { HISTORY_INVARIANT_IDS } from '../checks/index.ts';
import { fixtureRun, fixtureSummary, NASTY_EVIDENCE, standardFixture } from '../result/testing/index.ts';
import { visibleControls } from './escape.ts';
import { EXPECTATIONS_CLASSNAME, INVOCATION_CLASSNAME, renderJunit, UNEXPLAINED_NAME } from './junit.ts';
import { findAll, parseXml, type XmlElement } from './testing/index.ts';

function testcase(root: XmlElement, classname: string, name: string): XmlElement {
  const found = findAll(root, 'testcase').find((c) => c.attributes.classname === classname && c.attributes.name === name);
  if (!found) throw new Error(`no testcase ${classname} / ${name}`);
  return found;
}

describe('renderJunit', () => {
  const summary = standardFixture();
  const root = parseXml(renderJunit(summary));

  it('is one testsuite named after the scenario, with a testcase per run x invariant, expectation and the completion', () => {
    const suites = findAll(root, 'testsuite');
    expect(suites.map((s) => s.attributes.name)).toEqual(['fixture']);
    const cases = findAll(root, 'testcase');
    expect(cases).toHaveLength(summary.runs.length * HISTORY_INVARIANT_IDS.length + summary.expectations.length + 1);
    expect(suites[0]?.attributes.tests).toBe(String(cases.length));
  });

  it('reports a failing invariant with all its evidence, unescaped exactly on reading', () => {
    const failure = testcase(root, 'v0-0001', 'payload.ceiling').children.find((c) => c.name === 'failure');
    expect(failure?.attributes.type).toBe('invariant');
    expect(failure?.attributes.message).toBe(visibleControls(NASTY_EVIDENCE));
    expect(failure?.text).toBe(visibleControls(`${NASTY_EVIDENCE}\nevent 61 ActivityTaskScheduled call_model input is 2,251,330 bytes`));
  });

  it('reports not-applicable as skipped with the reason, and a pass as an empty testcase', () => {
    const skipped = testcase(root, 'current-0002', 'history.continue-as-new').children;
    expect(skipped.map((c) => c.name)).toEqual(['skipped']);
    expect(skipped[0]?.attributes.message).toBe('not applicable: history.continue-as-new was not exercised by current-0002');
    expect(testcase(root, 'current-0001', 'history.continue-as-new').children).toEqual([]);
  });

  it('fails an unmet expectation with its detail and passes a met one', () => {
    const unmet = testcase(root, EXPECTATIONS_CLASSNAME, 'tmprl1103 does not reproduce on v0').children[0];
    expect(unmet?.name).toBe('failure');
    expect(unmet?.text).toBe('v0-0001: payload.ceiling failed <event 57> & wft.no-retry-loop failed');
    expect(testcase(root, EXPECTATIONS_CLASSNAME, 'all invariants hold on current').children).toEqual([]);
  });

  it('counts failures and skips on the suite', () => {
    const suite = findAll(root, 'testsuite')[0];
    // 2 failing invariants, 1 unmet expectation, partial.
    expect(suite?.attributes.failures).toBe('4');
    expect(Number(suite?.attributes.skipped)).toBe(findAll(root, 'skipped').length);
    expect(Number(suite?.attributes.skipped)).toBeGreaterThan(0);
  });

  it('fails the completion testcase only when partial', () => {
    expect(testcase(root, INVOCATION_CLASSNAME, 'finished').children[0]?.attributes.type).toBe('partial');
    const finished = parseXml(renderJunit(standardFixture({ partial: false })));
    expect(testcase(finished, INVOCATION_CLASSNAME, 'finished').children).toEqual([]);
  });

  it('stays well-formed whatever the names hold', () => {
    const hostile = fixtureSummary([], {
      scenario: 'a"b<c>&\u0000d',
      environment: "cluster 'x'\n\ttab",
      expectations: [{ description: ']]> <![CDATA[ \uD800', met: false, detail: '\u001B[31mred\u001B[0m' }],
    });
    const parsed = parseXml(renderJunit(hostile));
    expect(findAll(parsed, 'testsuite')[0]?.attributes.name).toBe('a"b<c>&\\u0000d');
    expect(findAll(parsed, 'property').find((p) => p.attributes.name === 'environment')?.attributes.value).toBe("cluster 'x'\n\ttab");
    expect(testcase(parsed, EXPECTATIONS_CLASSNAME, ']]> <![CDATA[ \\uD800').children[0]?.text).toBe('\\u001B[31mred\\u001B[0m');
  });

  it('is deterministic', () => {
    expect(renderJunit(standardFixture())).toBe(renderJunit(standardFixture()));
  });
});

describe('renderJunit with a run no expectation accounts for', () => {
  it('fails a testcase of its own, with its first evidence line', () => {
    const why = 'ended failed: Error serializing to JSON: UnicodeEncodeError: surrogates not allowed';
    const root = parseXml(renderJunit(fixtureSummary([], { unexplained: [{ runId: 'long-run-0007', binary: 'v0', why }] })));
    const failure = testcase(root, 'long-run-0007', UNEXPLAINED_NAME).children.find((c) => c.name === 'failure');
    expect(failure?.attributes).toMatchObject({ type: 'unexplained', message: why });
  });
});

describe('renderJunit with a run stopped because longrun was interrupted', () => {
  it("skips its failures as the stop's, not the run's; a run that ended by itself still fails them", () => {
    const options = { turns: 3, growthBytes: 1000, compaction: 'none' as const, failures: { 'run.liveness': ['event 40: terminated'] } };
    const stopped = fixtureRun({ ...options, runId: 'stopped-run-0001', outcome: 'terminated' });
    (stopped.executions.at(-1) as { reason?: string }).reason = 'longrun was interrupted; pending: call_model attempt 1';
    const failed = fixtureRun({ ...options, runId: 'failed-run-0002' });
    const root = parseXml(renderJunit(fixtureSummary([stopped, failed], { partial: true })));
    expect(testcase(root, 'stopped-run-0001', 'run.liveness').children.map((c) => [c.name, c.attributes.message])).toEqual([
      ['skipped', 'the run was stopped when longrun was interrupted, not judged: event 40: terminated'],
    ]);
    expect(testcase(root, 'failed-run-0002', 'run.liveness').children.map((c) => c.name)).toEqual(['failure']);
  });
});
