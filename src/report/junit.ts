/**
 * junit.xml for CI: one testsuite for the scenario, a testcase per run x invariant
 * (classname = run id, name = invariant id), one per expectation, a failing one per run no
 * expectation accounts for, and one saying whether the invocation finished (a partial one must
 * not look green).
 */
import type { InvariantResult } from '../checks/index.ts';
import { stoppedByInterrupt } from '../contract/interrupted.ts';
import type { Summary } from '../result/index.ts';
import { escapeAttribute, escapeText, truncate } from './escape.ts';
import { plural } from './format.ts';

/** Testcases of expectations and of completion use these classnames (run ids are the others). */
export const EXPECTATIONS_CLASSNAME = 'expectations';
export const INVOCATION_CLASSNAME = 'longrun';
/** The testcase of a run no expectation accounts for (its classname is the run's id). */
export const UNEXPLAINED_NAME = 'accounted for by an expectation';

const MESSAGE_MAX = 300;

interface TestCase {
  classname: string;
  name: string;
  seconds: number;
  failure?: { message: string; type: string; body: string };
  skipped?: string;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function firstLine(text: string): string {
  return truncate(text.split('\n', 1)[0] ?? '', MESSAGE_MAX);
}

function invariantCase(runId: string, result: InvariantResult, interrupted: boolean): TestCase {
  const testCase: TestCase = { classname: runId, name: result.id, seconds: 0 };
  if (result.status === 'fail' && interrupted) {
    // What the stop did to a run is no regression: the invocation's own case says it was cut short.
    testCase.skipped = `the run was stopped when longrun was interrupted, not judged: ${firstLine(result.evidence[0] ?? `${result.id} failed`)}`;
  } else if (result.status === 'fail') {
    testCase.failure = {
      message: firstLine(result.evidence[0] ?? `${result.id} failed`),
      type: 'invariant',
      body: result.evidence.join('\n'),
    };
  } else if (result.status === 'not-applicable') {
    const why = result.evidence[0];
    testCase.skipped = why ? `not applicable: ${firstLine(why)}` : 'not applicable: the run did not exercise this invariant';
  }
  return testCase;
}

function testCases(summary: Summary): TestCase[] {
  const cases = summary.runs.flatMap((run) => {
    const interrupted = stoppedByInterrupt(run.executions.at(-1)?.reason);
    return run.invariants.map((result) => invariantCase(run.runId, result, interrupted));
  });
  for (const expectation of summary.expectations) {
    cases.push({
      classname: EXPECTATIONS_CLASSNAME,
      name: expectation.description,
      seconds: 0,
      ...(expectation.met ? {} : { failure: { message: firstLine(expectation.detail), type: 'expectation', body: expectation.detail } }),
    });
  }
  // A run no expectation accounts for fails a case of its own, though none of its invariants may.
  for (const { runId, why } of summary.unexplained ?? []) {
    cases.push({
      classname: runId,
      name: UNEXPLAINED_NAME,
      seconds: 0,
      failure: { message: firstLine(why), type: 'unexplained', body: why },
    });
  }
  cases.push({
    classname: INVOCATION_CLASSNAME,
    name: 'finished',
    seconds: summary.durationMs / 1000,
    ...(summary.partial
      ? {
          failure: {
            message: `interrupted before it finished: ${plural(summary.runs.length, 'run')} judged`,
            type: 'partial',
            body: `longrun stopped at ${summary.finishedAt} (Ctrl-C, SIGTERM or its time budget); the results cover only the runs judged so far.`,
          },
        }
      : {}),
  });
  return cases;
}

function renderCase(testCase: TestCase): string {
  const open = `    <testcase classname="${escapeAttribute(testCase.classname)}" name="${escapeAttribute(testCase.name)}" time="${testCase.seconds.toFixed(3)}"`;
  if (testCase.failure) {
    const { message, type, body } = testCase.failure;
    return `${open}>\n      <failure message="${escapeAttribute(message)}" type="${escapeAttribute(type)}">${escapeText(body)}</failure>\n    </testcase>`;
  }
  if (testCase.skipped !== undefined) return `${open}>\n      <skipped message="${escapeAttribute(testCase.skipped)}"/>\n    </testcase>`;
  return `${open}/>`;
}

function property(name: string, value: string): string {
  return `      <property name="${escapeAttribute(name)}" value="${escapeAttribute(value)}"/>`;
}

/** The junit.xml of a summary (UTF-8, XML 1.0). Pure. */
export function renderJunit(summary: Summary): string {
  const cases = testCases(summary);
  const failures = cases.filter((c) => c.failure).length;
  const skipped = cases.filter((c) => c.skipped !== undefined).length;
  const counts = `tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(summary.durationMs)}"`;
  const properties = [
    property('seed', String(summary.seed)),
    property('environment', summary.environment),
    property('partial', String(summary.partial)),
    property('passed', String(summary.passed)),
    ...(summary.scenarioFile === undefined ? [] : [property('scenarioFile', summary.scenarioFile)]),
  ];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="longrun" ${counts}>`,
    `  <testsuite name="${escapeAttribute(summary.scenario)}" ${counts} timestamp="${escapeAttribute(summary.startedAt)}">`,
    '    <properties>',
    ...properties,
    '    </properties>',
    ...cases.map(renderCase),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
