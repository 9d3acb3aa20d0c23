import { describe, expect, it } from 'vitest';
import type { Resume } from '../../contract/kernel-api.ts';
import type { ContentPart, Message } from '../../contract/messages.ts';
import { checkRun } from '../index.ts';
import { DEFAULT_KERNEL_MAPPING } from '../mapping.ts';
import { DIGEST_ONLY_MAPPING } from '../testing/digest-only-mapping.ts';
import { jsonPayloads } from '../testing/history-builder.ts';
import { AgentRunHistory, lastGroups, resultOf, SMALL_LIMITS, toolOutputText } from '../testing/index.ts';
import { withUnreadableCall } from '../testing/unreadable-call.ts';

type ToolOutput = number | string;

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

  it('counts turn groups by their assistant messages, however many tools each called', () => {
    const fewer = new AgentRunHistory({ limits: SMALL_LIMITS })
      .turns(4, { tools: [1_000, 1_000] })
      .compact({ tailGroups: 2 })
      .turn();
    expect(resultOf(fewer.complete(), 'elision.minimal').evidence[0]).toMatch(/the tail keeps 2 turn groups where 3 fit/);
  });

  it("does not judge a tail whose size the history cannot tell: the last turn's tool failed, its result unknown", () => {
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).turns(3).turn({ failedTools: [0] });
    expect(resultOf(run.compact({ tailGroups: 2 }).turn().complete(), 'elision.minimal')).toMatchObject({
      status: 'pass',
      evidence: ['no payload elided an item', '1 rebuilt tails judged'],
    });
  });

  it('judges a tail of 8 groups, or of every group there was, whatever the cap', () => {
    const run = new AgentRunHistory({ limits: { ...SMALL_LIMITS, tailMaxBytes: 1_000_000 } });
    while (Buffer.byteLength(JSON.stringify(run.request())) <= run.limits.compactionTriggerBytes) run.turn();
    expect(resultOf(run.compact({ tailGroups: 8 }).turn().complete(), 'elision.minimal').status).toBe('pass');
  });
});

describe('elision.minimal: what a request elided before, and the tail at its edges', () => {
  it('charges the first request of a continued execution only with its own elisions, where the kernel carried its dialog whole', () => {
    // A kernel whose guard elides each request from its whole dialog, and carries that dialog across ContinueAsNew.
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).turn({ tools: [2_000] }).turn({ tools: [600] });
    const whole = run.dialog[3] as Message;
    run.turn({ messages: eliding(2_000), tools: [3_000] });
    const restore = (messages: Message[]) => messages.map((m, i) => (i === 3 ? whole : m));
    run.continueAsNew({ resume: (resume) => ({ ...resume, messages: restore(resume.messages) }) });
    // Its first request sends the placeholder the last one sent, and keeps the 3,000-byte output whole.
    const result = resultOf(run.turn().complete(), 'elision.minimal');
    expect(result.status).toBe('pass');
    expect(result.evidence[0]).toBe('1 elisions judged, 1 items elided');
  });

  /** Bytes of the last `groups` whole turn groups of the dialog compacted after turns like overTrigger's. */
  const lastGroupsBytes = (groups: number) => Buffer.byteLength(JSON.stringify(lastGroups(overTrigger().dialog, groups)));
  const tailOf = (tailMaxBytes: number, groups: number) => {
    const run = new AgentRunHistory({ limits: { ...SMALL_LIMITS, tailMaxBytes } });
    while (Buffer.byteLength(JSON.stringify(run.request())) <= SMALL_LIMITS.compactionTriggerBytes) run.turn();
    return resultOf(run.compact({ tailGroups: groups }).turn().complete(), 'elision.minimal');
  };

  it('fails a tail of 2 groups where the third fits the tail max to the byte, and holds it one byte under', () => {
    const three = lastGroupsBytes(3);
    expect(tailOf(three, 2).evidence[0]).toMatch(
      new RegExp(`keeps 2 turn groups where 3 fit \\(${three.toLocaleString('en-US')} bytes <= tail max`),
    );
    expect(tailOf(three - 1, 2).status).toBe('pass');
  });

  it('leaves a tail that is not the dialog verbatim, or of fewer groups than the minimum, to rebuild.contract', () => {
    const run = overTrigger();
    const elideLast = (rebuilt: Message[]) =>
      rebuilt.map((m, i) => (i === rebuilt.length - 1 ? ({ ...m, content: '[elided: tool output, 2,000 bytes]' } as Message) : m));
    const elided = resultOf(run.compact({ tailGroups: 2, rebuild: elideLast }).turn().complete(), 'elision.minimal');
    expect(elided.status).toBe('pass');
    expect(elided.evidence).toEqual(['1 elisions judged, 1 items elided', '1 rebuilt tails judged']);
    expect(tailOf(lastGroupsBytes(3), 1)).toMatchObject({
      status: 'pass',
      evidence: ['no payload elided an item', '1 rebuilt tails judged'],
    });
    // A dialog of one group: its tail is that group.
    const one = new AgentRunHistory({ limits: SMALL_LIMITS }).turn().compact().turn().complete();
    expect(resultOf(one, 'elision.minimal')).toMatchObject({
      status: 'pass',
      evidence: ['no payload elided an item', '1 rebuilt tails judged'],
    });
  });
});

describe("elision.minimal: the kernel's rule", () => {
  it("does not apply to a workflow without the kernel's mechanism, whatever its requests elide", () => {
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).turn({ tools: [2_000] }).turn({ tools: [600] });
    const histories = structuredClone(run.turn({ messages: eliding(600) }).histories());
    // Another workflow's input of its own, not a RunInput: its guard is not the kernel's.
    const [started] = histories[0]?.events ?? [];
    (started?.workflowExecutionStartedEventAttributes as { input: unknown }).input = jsonPayloads({ task: 'Fix the failing build.' });
    const result = checkRun(histories as never).results.find((r) => r.id === 'elision.minimal');
    expect(result).toMatchObject({ status: 'not-applicable', evidence: [expect.stringMatching(/^not the kernel's mechanism: /)] });
  });
});

describe('elision.minimal: payloads that do not line up with the dialog, left unjudged', () => {
  const judged = (histories: object[], mapping = DEFAULT_KERNEL_MAPPING) =>
    checkRun(histories as never, { mapping }).results.find((r) => r.id === 'elision.minimal');
  /** Turns with outputs of 2,000, 600 and 3,000 bytes: eliding the 600 first is the fault. */
  const threeTurns = () =>
    new AgentRunHistory({ limits: SMALL_LIMITS })
      .turn({ tools: [2_000] })
      .turn({ tools: [600] })
      .turn({ tools: [3_000] });
  const withoutLast = (dialog: Message[]) => eliding(600)(dialog).slice(0, -1);

  it('a request or a compaction input with a message more or fewer than the dialog', () => {
    const request = judged(threeTurns().turn({ messages: withoutLast }).histories());
    expect(request?.evidence[0]).toBe('no payload elided an item');
    const compaction = judged(threeTurns().compact({ sent: withoutLast, outcome: 'failed' }).turn().histories());
    expect(compaction?.evidence[0]).toBe('no payload elided an item');
  });

  it("a compaction's input that gives a text to an assistant message the dialog holds without one", () => {
    // A kernel that sends a tool-calling answer's null content as an empty text, and elides the 600-byte output.
    const emptyText = (dialog: Message[]) =>
      eliding(600)(dialog).map((m) => (m.role === 'assistant' && m.content === null ? ({ ...m, content: '' } as Message) : m));
    const result = judged(threeTurns().compact({ sent: emptyText, outcome: 'failed' }).turn().histories());
    expect(result?.evidence[0]).toMatch(/the compaction's input: elided a tool output of 600 bytes .* kept a tool output of 3,000 bytes/);
  });

  it('a turn whose request cannot be read, or whose dialog the history does not hold', () => {
    const unread = threeTurns().turn({ messages: eliding(600) });
    expect(judged(withUnreadableCall(unread, 3))?.evidence[0]).toBe('no payload elided an item');
    // A continued execution that carries nothing in its input; a kernel that sends compaction only a digest.
    const unheld = () => threeTurns().continueAsNew({ resume: () => undefined as unknown as Resume });
    expect(
      judged(
        unheld()
          .turn({ messages: eliding(600) })
          .histories(),
      )?.evidence[0],
    ).toBe('no payload elided an item');
    expect(judged(unheld().compact().turn().histories(), DIGEST_ONLY_MAPPING)?.evidence).toEqual([
      'no payload elided an item',
      '0 rebuilt tails judged',
    ]);
    // The compaction's input unmatched by a dialog held; the rebuild's tail judged against that input.
    expect(judged(unheld().compact().turn().histories())?.evidence).toEqual(['no payload elided an item', '1 rebuilt tails judged']);
  });

  it("a request that sends another role than the dialog's at the same place", () => {
    // The dialog's final answer, a text, sent as a tool output's placeholder: no elision of the answer's text.
    const asTool = (dialog: Message[]) =>
      dialog.map((m) =>
        m.role === 'assistant' && typeof m.content === 'string'
          ? ({ role: 'tool', tool_call_id: 'call_3_0', content: '[elided: tool output, 32 bytes]' } as Message)
          : m,
      );
    const result = judged(threeTurns().turn({ final: true }).turn({ messages: asTool }).histories());
    expect(result?.evidence[0]).toBe('no payload elided an item');
  });

  it('a rebuild whose request holds more than the dialog it displaced, judged whole when it holds it all', () => {
    const whole = (rebuilt: Message[], before: Message[]) => [...rebuilt.slice(0, 3), ...before];
    expect(resultOf(overTrigger().compact({ rebuild: whole }).turn(), 'elision.minimal').evidence).toEqual([
      'no payload elided an item',
      '1 rebuilt tails judged',
    ]);
    const more = (rebuilt: Message[], before: Message[]) => [...rebuilt.slice(0, 3), ...before, ...before.slice(-2)];
    expect(resultOf(overTrigger().compact({ rebuild: more }).turn(), 'elision.minimal').evidence).toEqual([
      'no payload elided an item',
      '0 rebuilt tails judged',
    ]);
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

  it('takes a screenshot as a tool item: elided before a smaller tool output, never after it', () => {
    const shot: ContentPart[] = [{ type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(3_000)}` } }];
    const url = Buffer.byteLength(shot[0]?.type === 'image_url' ? shot[0].image_url.url : '');
    const elide = (which: 'screenshot' | 'text') => (dialog: Message[]) =>
      dialog.map((m) => {
        if (m.role !== 'tool') return m;
        if (which === 'screenshot' && Array.isArray(m.content))
          return { ...m, content: [{ type: 'text', text: `[elided: screenshot, ${url.toLocaleString('en-US')} bytes]` }] } as Message;
        return which === 'text' && m.content.length === 2_000 ? ({ ...m, content: '[elided: tool output, 2,000 bytes]' } as Message) : m;
      });
    const run = (which: 'screenshot' | 'text') =>
      resultOf(
        new AgentRunHistory({ limits: SMALL_LIMITS })
          .turn({ tools: [shot, 2_000] })
          .turn({ messages: elide(which) })
          .complete(),
        'elision.minimal',
      );
    expect(run('screenshot').status).toBe('pass');
    expect(run('text').evidence[0]).toMatch(
      new RegExp(
        `elided a tool output of 2,000 bytes \\(message 4, part 0\\) and kept a screenshot of ${url.toLocaleString('en-US')} bytes \\(message 3, part 0\\) whole`,
      ),
    );
  });

  it('weighs no screenshot whose URL is not a string: unmeasured, it is no larger item kept', () => {
    const shot = [{ type: 'image_url', image_url: { url: 42 } }] as unknown as ContentPart[];
    const result = resultOf(
      new AgentRunHistory({ limits: SMALL_LIMITS })
        .turn({ tools: [shot, 600] })
        .turn({ messages: eliding(600) })
        .complete(),
      'elision.minimal',
    );
    expect(result.status).toBe('pass');
    expect(result.evidence[0]).toBe('1 elisions judged, 1 items elided');
  });

  it('charges a short output elided though the previous request sent it too, and a placeholder of its own form, however long', () => {
    const replacing = (from: (content: string) => boolean, to: string) => (dialog: Message[]) =>
      dialog.map((m) => (m.role === 'tool' && typeof m.content === 'string' && from(m.content) ? ({ ...m, content: to } as Message) : m));
    const run = (first: ToolOutput, to: string) =>
      resultOf(
        new AgentRunHistory({ limits: SMALL_LIMITS })
          .turn({ tools: [first] })
          .turn({ tools: [3_000] })
          .turn({ messages: replacing((content) => content === first || content.length === first, to) })
          .complete(),
        'elision.minimal',
      );
    // A 20-byte output, short enough for the history to keep its text.
    expect(run('All 12 tests passed.', '[elided: tool output, 20 bytes]').evidence[0]).toMatch(
      /elided a tool output of 20 bytes \(message 3, part 0\) and kept a tool output of 3,000 bytes/,
    );
    // A kernel's own form, past the length the history keeps the text of.
    const own = `The output of this tool call (600 bytes) was left out of the request to keep it under the limit; ${'.'.repeat(30)}`;
    expect(run(600, own).evidence[0]).toMatch(
      /elided a tool output of 600 bytes \(message 3, part 0\) and kept a tool output of 3,000 bytes/,
    );
  });

  it('weighs tool items only: a system prompt or user request kept whole is no larger item kept', () => {
    const short = 'All 12 tests passed.';
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).turn({ tools: [short] });
    const elide = (dialog: Message[]) =>
      dialog.map((m) => (m.role === 'tool' && m.content === short ? ({ ...m, content: '[elided: tool output, 20 bytes]' } as Message) : m));
    expect(resultOf(run.turn({ messages: elide }).complete(), 'elision.minimal')).toMatchObject({
      status: 'pass',
      evidence: ['1 elisions judged, 1 items elided', '0 rebuilt tails judged'],
    });
  });

  it('does not judge a message whose parts no longer line up with the dialog (a screenshot and its text made one placeholder)', () => {
    const both: ContentPart[] = [
      { type: 'text', text: toolOutputText(1, 0, 500) },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(3_000)}` } },
    ];
    const merged = (dialog: Message[]) =>
      dialog.map((m) =>
        m.role === 'tool' && Array.isArray(m.content)
          ? ({ ...m, content: [{ type: 'text', text: '[elided: tool output, 500 bytes]' }] } as Message)
          : m,
      );
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).turn({ tools: [both, 2_000] }).turn({ messages: merged });
    expect(resultOf(run.complete(), 'elision.minimal').status).toBe('not-applicable');
  });

  it('takes a screenshot replaced by a smaller one as no elision', () => {
    const shot = (bytes: number): ContentPart[] => [
      { type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(bytes)}` } },
    ];
    const smaller = (dialog: Message[]) =>
      dialog.map((m) => (m.role === 'tool' && Array.isArray(m.content) ? ({ ...m, content: shot(500) } as Message) : m));
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).turn({ tools: [shot(1_000), 3_000] }).turn({ messages: smaller });
    expect(resultOf(run.complete(), 'elision.minimal')).toMatchObject({
      status: 'not-applicable',
      evidence: ['no payload elided an item', '0 rebuilt tails judged'],
    });
  });

  describe("assistant texts, which a compaction's input may elide: a class of their own", () => {
    const said =
      (bytes: number) =>
      (dialog: Message[]): Message[] => [
        ...dialog,
        { role: 'assistant', content: `Found so far: ${'x'.repeat(bytes - 14)}` },
        { role: 'user', content: 'Go on.' },
      ];
    const eliding = (bytes: number) => (dialog: Message[]) =>
      dialog.map((m) =>
        m.role === 'assistant' && typeof m.content === 'string' && m.content.length === bytes
          ? ({ ...m, content: `[elided: assistant text, ${bytes} bytes]` } as Message)
          : m,
      );
    const compacted = (elided: number) =>
      resultOf(
        new AgentRunHistory({ limits: SMALL_LIMITS })
          .turn()
          .turn({ messages: said(900) })
          .turn({ messages: said(300) })
          .compact({ sent: eliding(elided) })
          .turn()
          .complete(),
        'elision.minimal',
      );

    it('fails a smaller assistant text elided while a larger one is kept whole', () => {
      expect(compacted(300).evidence[0]).toMatch(
        /the compaction's input: elided an assistant text of 300 bytes \(message \d+, part 0\) and kept an assistant text of 900 bytes \(message \d+, part 0\) whole/,
      );
    });

    it('holds the larger text elided first, weighed apart from the tool outputs: a larger tool output kept whole is no fault', () => {
      // The tool outputs (2,000 bytes each) stay whole; the 900-byte text goes first among texts.
      const result = compacted(900);
      expect(result.evidence[0]).toBe('1 elisions judged, 1 items elided');
    });
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
