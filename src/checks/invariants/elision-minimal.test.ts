import { describe, expect, it } from 'vitest';
import type { Message } from '../../contract/messages.ts';
import { AgentRunHistory, resultOf, SMALL_LIMITS } from '../testing/index.ts';

/** The request with each tool output of one of these sizes replaced by its placeholder, as a guard leaves it. */
const eliding =
  (...sizes: number[]) =>
  (dialog: Message[]): Message[] =>
    dialog.map((message) =>
      message.role === 'tool' && typeof message.content === 'string' && sizes.includes(message.content.length)
        ? { ...message, content: `[elided: tool output, ${message.content.length.toLocaleString('en-US')} bytes]` }
        : message,
    );

/** Three turns with tool outputs of these sizes, then a turn whose request elides `elided`. */
function elidedRun(outputs: number[], elided: number[]) {
  const run = new AgentRunHistory({ limits: SMALL_LIMITS });
  for (const size of outputs) run.turn({ tools: [size] });
  return resultOf(run.turn({ messages: eliding(...elided) }).complete(), 'elision.minimal');
}

function overTrigger(): AgentRunHistory {
  const run = new AgentRunHistory({ limits: SMALL_LIMITS });
  while (Buffer.byteLength(JSON.stringify(run.request())) <= run.limits.compactionTriggerBytes) run.turn();
  return run;
}

describe('elision.minimal', () => {
  // SMALL_LIMITS' blob limit is 64,000 bytes: the big-item threshold is 4,000.
  it('holds an elision that takes the largest items first', () => {
    const result = elidedRun([2_000, 600, 3_000], [3_000]);
    expect(result.status).toBe('pass');
    expect(result.evidence[0]).toBe('1 elisions judged, 1 items elided');
    expect(elidedRun([2_000, 600, 3_000], [3_000, 2_000]).status).toBe('pass');
  });

  it('fails an elision that takes smaller items while a larger one stays whole', () => {
    const result = elidedRun([2_000, 600, 3_000], [600, 2_000]);
    expect(result.status).toBe('fail');
    expect(result.evidence[0]).toMatch(
      /^event \d+ \(turn 4\), the request: elided a tool output of 600 bytes \(message \d+, part 0\) and kept a tool output of 3,000 bytes \(message \d+, part 0\) whole: elision takes the largest items first/,
    );
  });

  it('charges the smallest item elided against the largest kept, wherever they stand in the dialog', () => {
    // The smallest elided item stands first, the largest kept one between two smaller ones.
    expect(elidedRun([600, 2_000, 3_000], [600, 3_000]).status).toBe('fail');
    expect(elidedRun([500, 3_000, 700, 500], [700]).status).toBe('fail');
  });

  it('holds an elision that takes every tool output, and does not apply to a run that elides nothing and never rebuilds', () => {
    expect(elidedRun([2_000, 600], [2_000, 600]).status).toBe('pass');
    const none = resultOf(new AgentRunHistory().turn().complete(), 'elision.minimal');
    expect(none.status).toBe('not-applicable');
    expect(none.evidence).toEqual(['no payload elided an item', '0 rebuilt tails judged']);
  });

  it('lets items over the big-item threshold go in any order (oldest first, as v0 takes them), never after smaller ones', () => {
    expect(elidedRun([4_500, 600, 5_000], [4_500]).status).toBe('pass');
    expect(elidedRun([4_500, 600, 5_000], [600]).status).toBe('fail');
  });

  it('charges a request only with what it elided itself: a placeholder the previous request sent stays', () => {
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).turn({ tools: [3_000] }).turn({ tools: [600] });
    run.turn({ messages: eliding(3_000) }).turn({ messages: eliding(3_000) });
    expect(resultOf(run.complete(), 'elision.minimal').evidence[0]).toBe('1 elisions judged, 1 items elided');
  });

  it('holds a rebuilt tail of as many whole groups as fit, and fails one that keeps fewer', () => {
    const maximal = resultOf(overTrigger().compact().turn().complete(), 'elision.minimal');
    expect(maximal.status).toBe('pass');
    expect(maximal.evidence).toContain('1 rebuilt tails judged');
    const fewer = resultOf(overTrigger().compact({ tailGroups: 2 }).turn().complete(), 'elision.minimal');
    expect(fewer.status).toBe('fail');
    expect(fewer.evidence[0]).toMatch(
      /^event \d+ \(turn \d+\), the rebuild's tail: the tail keeps 2 turn groups where 3 fit \([\d,]+ bytes <= tail max 12,000\): it keeps as many whole groups as fit, up to 8$/,
    );
  });

  it('judges a tail of 8 groups, or of every group there was, whatever the cap', () => {
    const run = new AgentRunHistory({ limits: { ...SMALL_LIMITS, tailMaxBytes: 1_000_000 } });
    while (Buffer.byteLength(JSON.stringify(run.request())) <= run.limits.compactionTriggerBytes) run.turn();
    expect(resultOf(run.compact({ tailGroups: 8 }).turn().complete(), 'elision.minimal').status).toBe('pass');
  });
});

describe('elision.minimal: what it judges besides a request', () => {
  it("judges a compaction's input: it holds one that takes the largest tool output first, and fails one that takes a smaller", () => {
    const run = (elided: number[]) => {
      const history = new AgentRunHistory({ limits: SMALL_LIMITS });
      for (const size of [2_000, 600, 3_000]) history.turn({ tools: [size] });
      return resultOf(
        history
          .compact({ sent: eliding(...elided) })
          .turn()
          .complete(),
        'elision.minimal',
      );
    };
    const largest = run([3_000]);
    expect(largest.status).toBe('pass');
    expect(largest.evidence[0]).toBe('1 elisions judged, 1 items elided');
    const smaller = run([600]);
    expect(smaller.status).toBe('fail');
    expect(smaller.evidence[0]).toMatch(
      /^event \d+ \(turn 4\), the compaction's input: elided a tool output of 600 bytes .* kept a tool output of 3,000 bytes/,
    );
  });

  it('counts an item at the big-item threshold as small, and an item as large as the one kept whole as no reason to fail', () => {
    // SMALL_LIMITS' threshold: 4,000 bytes.
    expect(elidedRun([4_000, 600, 5_000], [4_000]).status).toBe('fail');
    expect(elidedRun([4_001, 600, 5_000], [4_001]).status).toBe('pass');
    const run = new AgentRunHistory({ limits: SMALL_LIMITS })
      .turn({ tools: [2_000] })
      .turn({ tools: [600] })
      .turn({ tools: [2_000] });
    const first = (dialog: Message[]) => eliding(2_000)(dialog.slice(0, 4)).concat(dialog.slice(4));
    expect(resultOf(run.turn({ messages: first }).complete(), 'elision.minimal').evidence[0]).toBe('1 elisions judged, 1 items elided');
  });
});
