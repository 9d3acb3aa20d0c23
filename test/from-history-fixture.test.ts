/**
 * `longrun scenario from-history` on a recorded history with failures (test/from-history-fixture:
 * tmprl1103's run on v0, the model's 429 and 500 retried, its workflow worker killed): the
 * scenario paces its turns as the source did, states the failures as faults and a kill at their
 * turns, expects the incident at the turn it broke at, and carries no string of the source.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildRunView, loadHistory, profileRun } from '../src/checks/index.ts';
import { scenarioFromHistory } from '../src/scenario/from-history.ts';
import { turnGaps } from '../src/scenario/from-history-pacing.ts';
import { parseScenario } from '../src/scenario/index.ts';
import { expectNoSourceStrings, FIXTURE, payloadStrings } from './from-history-support.ts';

const json = gunzipSync(readFileSync(FIXTURE)).toString('utf8');
const run = () => buildRunView([loadHistory(json, { source: FIXTURE })]);
const sha256 = createHash('sha256').update(json).digest('hex');
const turnsOf = (rule: { when?: { turns?: unknown } }) => (Array.isArray(rule.when?.turns) ? (rule.when.turns as number[]) : []);

describe('longrun scenario from-history on a recorded history with failures', () => {
  it('writes pacing, the failures at their turns and the incident at its turn, and none of the source strings', () => {
    const made = scenarioFromHistory(run(), { source: FIXTURE, sha256 });
    const scenario = parseScenario(made.text, 'from-fixture.yaml');
    const broke = profileRun(run()).break;
    expect(broke).toEqual({ incident: 'tmprl1103', turn: 17 });
    expect(scenario.expect).toEqual([{ on: 'v0', reproduces: { incident: 'tmprl1103', atTurn: 17, within: 1 } }]);

    const agent = scenario.faults.agent ?? [];
    // The recorded failures: a 429 once at turn 4, a 500 twice at turn 7; first, so they win over the pacing.
    expect(agent.slice(0, 2)).toEqual([
      { fault: { kind: 'http-429', retryAfterSeconds: 0 }, when: { turns: [4], attempts: [1] } },
      { fault: { kind: 'http-500' }, when: { turns: [7], attempts: [1, 2] } },
    ]);
    // The workflow worker died once (its workflow task timed out): a kill at that turn.
    const killed = run()
      .executions[0]?.history.events.filter((e) => e.type === 'WorkflowTaskTimedOut')
      .map((e) => e.id);
    expect(killed).toHaveLength(1);
    expect(scenario.chaos).toEqual([{ action: 'kill-worker', atTurn: 14 }]);
    const atTurn = 14;
    expect(made.text).toContain(`a worker that died as a kill-worker at turn ${atTurn}`);

    // Every other turn before the break paced by its gap, as the source took it (under 10 s in all: time scale 1).
    const gaps = turnGaps(run());
    const paced = new Map(agent.slice(2).flatMap((r) => turnsOf(r).map((t) => [t, r.fault])));
    expect(made.timeScale).toBe(1);
    expect([...paced.keys()].sort((a, b) => a - b)).toEqual([...gaps.keys()].filter((t) => t !== atTurn));
    for (const [turn, fault] of paced) {
      expect(fault.kind).toBe('latency');
      const ms = (fault as { ms: number }).ms;
      expect(Math.abs(ms - (gaps.get(turn) as number)), `turn ${turn}`).toBeLessThanOrEqual((gaps.get(turn) as number) * 0.05 + 1);
    }

    // The screenshots the source took (5,000 bytes of PNG at turns 6 and 12), at their sizes,
    // though the later requests carry them elided.
    const screenshots = (scenario.shape.turnsProfile ?? []).flatMap((turn, i) =>
      turn.calls.filter((call) => call.tool === 'screenshot').map((call) => [i + 1, call.bytes]),
    );
    expect(screenshots).toEqual([
      [6, 5001],
      [12, 5001],
    ]);

    expectNoSourceStrings(json, made.text);
    // A scenario that carried one of them (the system prompt's last line) is caught.
    const line = payloadStrings(json)
      .find((s) => s.length > 200)
      ?.split('\n')
      .at(-1) as string;
    expect(() => expectNoSourceStrings(json, `${made.text}# ${line}\n`)).toThrow();
  });

  it('scales the pacing by --time-scale, and words the expectation it writes', () => {
    const full = parseScenario(scenarioFromHistory(run(), { source: FIXTURE, sha256 }).text, 'a.yaml');
    const half = scenarioFromHistory(run(), { source: FIXTURE, sha256, timeScale: 0.5 });
    const delays = (s: typeof full) =>
      (s.faults.agent ?? []).flatMap((r) => (r.fault.kind === 'latency' ? turnsOf(r).map(() => r.fault) : []));
    const total = (s: typeof full) => delays(s).reduce((sum, f) => sum + (f as { ms: number }).ms, 0);
    expect(half.timeScale).toBe(0.5);
    expect(total(parseScenario(half.text, 'b.yaml'))).toBeCloseTo(total(full) / 2, -2);
    expect(half.text).toMatch(/^# to the next's, times 0\.5 /m);
  });
});
