/**
 * versioning.pinned-build on real histories (test/corpus/versioning, recorded by
 * test/corpus/record-versioning.ts on the embedded server): a run pinned to v1 that continued as
 * new onto v2 after the current version moved holds; a run pinned to v0 moved to v1 mid-execution
 * by a versioning override fails; so does the upgrade run with its executions after the move put
 * back on v1 (what a ContinueAsNew without AUTO_UPGRADE records); a history without deployment
 * versions is not applicable.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { checkRun } from '../index.ts';
import { AgentRunHistory, resultOf } from '../testing/index.ts';

const corpus = new URL('../../../test/corpus/versioning/', import.meta.url);

type Raw = { events: Record<string, unknown>[] };

function executions(name: string): Raw[] {
  return readdirSync(corpus)
    .filter((file) => file.startsWith(`${name}-execution-`))
    .sort((a, b) => Number(/(\d+)\.json/.exec(a)?.[1]) - Number(/(\d+)\.json/.exec(b)?.[1]))
    .map((file) => JSON.parse(gunzipSync(readFileSync(new URL(file, corpus))).toString('utf8')));
}

function pinnedBuild(histories: Raw[]) {
  return checkRun(histories as never[]).results.find((r) => r.id === 'versioning.pinned-build');
}

/** The deployment version every WorkflowTaskCompleted of `history` records, rewritten to `buildId`. */
function onBuild(history: Raw, buildId: string): Raw {
  for (const event of history.events) {
    const completed = event.workflowTaskCompletedEventAttributes as { deploymentVersion?: { buildId: string } } | undefined;
    if (completed?.deploymentVersion) completed.deploymentVersion.buildId = buildId;
  }
  return history;
}

describe('versioning.pinned-build', () => {
  it('holds on a run pinned to v1 whose ContinueAsNew after the move lands on v2', () => {
    const result = pinnedBuild(executions('upgrade-on-can'));
    expect(result?.status).toBe('pass');
    const told = result?.evidence.findIndex((line) => line.includes('told its target version changed')) ?? -1;
    expect(told).toBeGreaterThanOrEqual(0);
    expect(result?.evidence[told]).toMatch(/^execution \d+: v1 \(pinned\), told its target version changed at event \d+$/);
    expect(result?.evidence.slice(told + 1)).toEqual(
      result?.evidence.slice(told + 1).map((_, i) => `execution ${told + i + 2}: v2 (pinned)`),
    );
  });

  it('fails a run pinned to v0 that v1 took over mid-execution (a versioning override)', () => {
    const result = pinnedBuild(executions('moved-mid-execution'));
    expect(result?.status).toBe('fail');
    expect(result?.evidence[0]).toMatch(
      /^event \d+: WorkflowTaskCompleted on longrun-chaos-versioning-pinned-\w+-v0:v1, but the execution is pinned to longrun-chaos-versioning-pinned-\w+-v0:v0 \(since event 4\): it moved to another build before its ContinueAsNew$/,
    );
    expect(result?.evidence.at(-1)).toMatch(/^execution 1: v0 -> v1 \(pinned\)/);
  });

  it('fails a run whose ContinueAsNew after the move kept it on v1 (no AUTO_UPGRADE)', () => {
    const histories = executions('upgrade-on-can');
    const told = pinnedBuild(histories)?.evidence.findIndex((line) => line.includes('told its target version changed')) ?? -1;
    const stayed = histories.map((history, i) => (i > told ? onBuild(history, 'v1') : history));
    const result = pinnedBuild(stayed);
    expect(result?.status).toBe('fail');
    expect(result?.evidence[0]).toMatch(
      new RegExp(
        `^execution ${told + 2} event \\d+: the execution starts on .*:v1, the build the one before was pinned to, though the server had told that one its target version changed \\(WorkflowTaskStarted \\d+\\): its ContinueAsNew did not upgrade \\(AUTO_UPGRADE\\)$`,
      ),
    );
  });

  it('holds on an auto-upgrade run that moves to the new build mid-execution', () => {
    const histories = executions('moved-mid-execution');
    for (const event of histories.flatMap((history) => history.events)) {
      const completed = event.workflowTaskCompletedEventAttributes as { versioningBehavior?: string } | undefined;
      if (completed?.versioningBehavior) completed.versioningBehavior = 'VERSIONING_BEHAVIOR_AUTO_UPGRADE';
    }
    expect(pinnedBuild(histories)?.status).toBe('pass');
  });

  it('judges a run whose last execution is still open', () => {
    const histories = executions('upgrade-on-can');
    // Its last event is the one that closes it.
    const open = [...histories.slice(0, -1), { events: (histories.at(-1) as Raw).events.slice(0, -1) }];
    expect(pinnedBuild(open)?.status).toBe('pass');
  });

  it('is not applicable to a run no versioned worker took', () => {
    expect(resultOf(new AgentRunHistory().turn().complete(), 'versioning.pinned-build')).toMatchObject({
      status: 'not-applicable',
      evidence: ['no workflow task was completed by a versioned worker'],
    });
  });
});
