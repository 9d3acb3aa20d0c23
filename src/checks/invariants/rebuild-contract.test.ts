import { describe, expect, it } from 'vitest';
import type { Resume } from '../../contract/kernel-api.ts';
import type { ContentPart, Message } from '../../contract/messages.ts';
import { checkRun } from '../index.ts';
import { DEFAULT_KERNEL_MAPPING } from '../mapping.ts';
import { DIGEST_ONLY_MAPPING } from '../testing/digest-only-mapping.ts';
import { AgentRunHistory, CARD_FRAME, lastGroups, resultOf, SMALL_LIMITS, validCard } from '../testing/index.ts';
import { withUnreadableCall } from '../testing/unreadable-call.ts';

function overTrigger(): AgentRunHistory {
  const run = new AgentRunHistory({ limits: SMALL_LIMITS });
  while (Buffer.byteLength(JSON.stringify(run.request())) <= run.limits.compactionTriggerBytes) run.turn();
  return run;
}

/** The violations found in the first request after a compaction rebuilt as `rebuild` says. */
function rebuiltAs(rebuild: (rebuilt: Message[], before: Message[]) => Message[], tailGroups = 2): string[] {
  const run = overTrigger().compact({ rebuild, tailGroups }).turn();
  const result = resultOf(run, 'rebuild.contract');
  expect(result.status).toBe('fail');
  return result.evidence
    .filter((line) => line.includes('first request after the compaction'))
    .map((line) => line.split(': ').slice(1).join(': '));
}

describe('rebuild.contract', () => {
  it('fails a request the journal says was elided when nothing in it was (a phantom payload.elided relaxes the comparison)', () => {
    const elidedAtTurn3 = (elides: boolean) => {
      const run = new AgentRunHistory().turn().turn({ tools: [5_000] });
      run.journal('payload.elided', { turn: 3, payload: 'request', items: 1 }, { turn: 3 });
      const placeholder = (dialog: Message[]) =>
        dialog.map((m, i) => (i === dialog.length - 1 ? ({ ...m, content: '[elided: tool output, 5,000 bytes]' } as Message) : m));
      return resultOf(run.turn(elides ? { messages: placeholder } : {}).complete(), 'rebuild.contract');
    };
    // Nothing was rebuilt: without a violation the invariant does not apply.
    expect(elidedAtTurn3(true).status).toBe('not-applicable');
    const phantom = elidedAtTurn3(false);
    expect(phantom.status).toBe('fail');
    expect(phantom.evidence).toContainEqual(
      expect.stringMatching(
        /^event \d+ \(turn 3\): the journal says the request was elided \(event \d+\), but it is the dialog as it stood, nothing elided$/,
      ),
    );
  });

  describe('what an elision leaves: in the form [elided: <what>, <n> bytes], the truth', () => {
    const screenshot = `data:image/png;base64,${'iVBORw0KGgo'.repeat(300)}`;
    const text = 'вывод: 合格 ✅ '.repeat(200);
    const screenshotBytes = screenshot.length;
    const textBytes = Buffer.byteLength(text);
    const grouped = (n: number) => n.toLocaleString('en-US');
    /** Turn 3's request with the last tool message's parts (a text, a screenshot) as `leave` leaves them; the journal says it elided. */
    const leaving = (leave: (part: ContentPart) => ContentPart) => leavingContent((parts) => parts.map(leave));
    /** The same, the message's whole content as `leave` makes it. */
    const leavingContent = (leave: string | ((parts: ContentPart[]) => ContentPart[])) => {
      const run = new AgentRunHistory().turn().turn({
        tools: [
          [
            { type: 'text', text },
            { type: 'image_url', image_url: { url: screenshot } },
          ],
        ],
      });
      run.journal('payload.elided', { turn: 3, payload: 'request', items: 1 }, { turn: 3 });
      const edit = (dialog: Message[]) =>
        dialog.map((m, i) =>
          i === dialog.length - 1
            ? ({ ...m, content: typeof leave === 'string' ? leave : leave(m.content as ContentPart[]) } as Message)
            : m,
        );
      const result = resultOf(run.turn({ messages: edit }).complete(), 'rebuild.contract');
      if (result.status !== 'fail') return result.status;
      return result.evidence.filter((line) => / \(tool call_/.test(line)).map((line) => line.slice(line.search(/part |has \d/)));
    };
    const image = (replacement: ContentPart | string) => (part: ContentPart) =>
      part.type !== 'image_url'
        ? part
        : typeof replacement === 'string'
          ? ({ type: 'text', text: replacement } as ContentPart)
          : replacement;
    const toolText = (replacement: string) => (part: ContentPart) =>
      part.type === 'text' ? { type: 'text' as const, text: replacement } : part;

    it('passes placeholders that say what was there and its UTF-8 bytes (digits grouped or not), and a form of its own', () => {
      expect(leaving(image(`[elided: screenshot, ${grouped(screenshotBytes)} bytes]`))).toBe('not-applicable');
      expect(leaving(toolText(`[elided: tool output, ${textBytes} bytes]`))).toBe('not-applicable');
      expect(leaving(image('(a screenshot was removed here)'))).toBe('not-applicable');
    });

    it("judges a compaction's input as a request: a tool output it elided must be called one", () => {
      const compactedWith = (what: string) => {
        const run = overTrigger();
        const first = run.dialog.findIndex((m) => m.role === 'tool');
        const bytes = Buffer.byteLength(run.dialog[first]?.content as string);
        const sent = (before: Message[]) =>
          before.map((m, i) => (i === first ? ({ ...m, content: `[elided: ${what}, ${grouped(bytes)} bytes]` } as Message) : m));
        const result = resultOf(run.compact({ sent }).turn(), 'rebuild.contract');
        return result.evidence.filter((line) => line.includes("the compaction's input")).map((line) => line.slice(line.indexOf('part ')));
      };
      expect(compactedWith('tool output')).toEqual([]);
      expect(compactedWith('assistant text')).toEqual([
        expect.stringMatching(/^part 0: ".*" says assistant text; it replaced a tool output$/),
      ]);
    });

    it("measures a tool output given as a string in UTF-8 bytes, as it is read from the history's bytes", () => {
      const elidedTo = (placeholder: string) => {
        const run = new AgentRunHistory().turn().turn({ tools: [`${text}\n"quoted"\t\u0001 \ud800`] });
        run.journal('payload.elided', { turn: 3, payload: 'request', items: 1 }, { turn: 3 });
        const edit = (dialog: Message[]) =>
          dialog.map((m, i) => (i === dialog.length - 1 ? ({ ...m, content: placeholder } as Message) : m));
        const result = resultOf(run.turn({ messages: edit }).complete(), 'rebuild.contract');
        return result.status === 'fail' ? result.evidence.filter((line) => line.includes(', part ')).length : result.status;
      };
      const bytes = Buffer.byteLength(`${text}\n"quoted"\t\u0001 \ud800`);
      expect(elidedTo(`[elided: tool output, ${grouped(bytes)} bytes]`)).toBe('not-applicable');
      expect(elidedTo(`[elided: tool output, ${grouped(bytes - 1)} bytes]`)).toBe(1);
    });

    it('fails a placeholder that names the wrong item, a size in UTF-16 units, no item, or another form; an empty text; a part that is no text', () => {
      expect(leaving(image(`[elided: tool output, ${grouped(screenshotBytes)} bytes]`))).toEqual([
        `part 1: "[elided: tool output, ${grouped(screenshotBytes)} bytes]" says tool output; it replaced a screenshot`,
      ]);
      expect(leaving(toolText(`[elided: tool output, ${grouped(text.length)} bytes]`))).toEqual([
        `part 0: "[elided: tool output, ${grouped(text.length)} bytes]" says ${grouped(text.length)} bytes; the tool output was ${grouped(textBytes)} bytes`,
      ]);
      expect(leaving(image(`[elided: , ${grouped(screenshotBytes)} bytes]`))).toEqual([
        `part 1: "[elided: , ${grouped(screenshotBytes)} bytes]" says nothing; it replaced a screenshot`,
      ]);
      expect(leaving(image('[elided: screenshot]'))).toEqual([
        `part 1: a screenshot of ${grouped(screenshotBytes)} bytes replaced by "[elided: screenshot]", not of the form [elided: <what>, <n> bytes]`,
      ]);
      expect(leaving(toolText(''))).toEqual([`part 0: a tool output of ${grouped(textBytes)} bytes replaced by an empty text`]);
      expect(leavingContent(`[elided: screenshot, ${grouped(screenshotBytes)} bytes]`)).toEqual([
        "has 1 parts where the dialog's has 2: an elision replaces each item with a text, it removes none",
      ]);
      expect(leaving(image({ type: '', text: '[elided: screenshot, 1 bytes]' } as unknown as ContentPart))).toEqual([
        `part 1: a screenshot of ${grouped(screenshotBytes)} bytes replaced by a part that is not a text`,
      ]);
    });
  });

  it("fails when context.compacted's dropped is not the groups the rebuild displaced (the dropped-counts-kept control)", () => {
    const run = overTrigger();
    const groups = run.request().messages.filter((m) => m.role === 'assistant').length;
    run.compact({ tailGroups: 3, record: (data) => ({ ...data, dropped: groups }) }).turn();
    const result = resultOf(run, 'rebuild.contract');
    expect(result.status).toBe('fail');
    expect(result.evidence).toContainEqual(
      expect.stringMatching(
        new RegExp(`context\\.compacted says kept 3, dropped ${groups}; the rebuild kept 3 turn groups and displaced ${groups - 3}$`),
      ),
    );
  });

  it('fails a wrong kept beside a right dropped, and judges no counts a context.compacted does not give', () => {
    const run = overTrigger();
    run.compact({ tailGroups: 3, record: (data) => ({ ...data, kept: 4 }) }).turn();
    const result = resultOf(run, 'rebuild.contract');
    expect(result.status).toBe('fail');
    expect(result.evidence).toContainEqual(
      expect.stringMatching(/context\.compacted says kept 4, dropped \d+; the rebuild kept 3 turn groups/),
    );
    // A kernel that journals no counts (or only one of them) is judged on its rebuild alone.
    const without = (...left: string[]) =>
      resultOf(
        overTrigger()
          .compact({ tailGroups: 3, record: (data) => Object.fromEntries(Object.entries(data).filter(([key]) => !left.includes(key))) })
          .turn(),
        'rebuild.contract',
      );
    for (const left of [['kept', 'dropped'], ['kept'], ['dropped']]) {
      const judged = without(...left);
      expect(judged.status).toBe('pass');
      expect(judged.evidence.filter((line) => line.includes('context.compacted says'))).toEqual([]);
    }
  });

  it('reads the counts of each compaction from its own context.compacted, when two turns compacted to the same card', () => {
    const run = overTrigger();
    const card = validCard(run.request().messages);
    run.compact({ card, tailGroups: 3 }).turn().turn().turn();
    run.compact({ card, tailGroups: 2 }).turn().complete(); // kept 3 then kept 2: counts of their own
    const result = resultOf(run, 'rebuild.contract');
    expect(result.evidence.filter((line) => line.includes('context.compacted says'))).toEqual([]);
    expect(result.status).toBe('pass');
  });

  it('passes rebuilds of 2 to 8 whole groups and append-only turns between them', () => {
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).play(12);
    run.compact({ tailGroups: 3 }).play(8).complete();
    const result = resultOf(run, 'rebuild.contract');
    expect(result.status).toBe('pass');
    expect(result.evidence).toContainEqual(expect.stringMatching(/event \d+ \(turn \d+\): rebuilt with 3 turn groups, tail [\d,]+ bytes$/));
    expect(result.evidence.at(-1)).toMatch(/^\d+ requests checked for tool contiguity; \d+ rebuilds$/);
  });

  it('fails a system prompt or user request that is not verbatim', () => {
    expect(rebuiltAs(([, ...rest]) => [{ role: 'system', content: 'You are brief.' }, ...rest])).toEqual([
      'messages[0] is not the system prompt verbatim',
    ]);
    expect(rebuiltAs(([system, , ...rest]) => [system as Message, { role: 'user', content: 'Fix it.' }, ...rest])).toEqual([
      'messages[1] is not the user request verbatim',
    ]);
  });

  it('fails a card that is missing, doubled, changed or bare', () => {
    expect(rebuiltAs(([s, u, , ...tail]) => [s as Message, u as Message, ...tail])).toEqual([
      'system messages after the user request at []; exactly one card message at [2] expected',
    ]);
    expect(rebuiltAs(([s, u, card, ...tail]) => [s as Message, u as Message, card as Message, card as Message, ...tail])).toEqual([
      'system messages after the user request at [2, 3]; exactly one card message at [2] expected',
    ]);
    expect(
      rebuiltAs(([s, u, , ...tail]) => [s as Message, u as Message, { role: 'system', content: `${CARD_FRAME} (lost)` }, ...tail]),
    ).toEqual(['messages[2] does not hold the card verbatim']);
    expect(
      rebuiltAs(([s, u, card, ...tail]) => [
        s as Message,
        u as Message,
        { role: 'system', content: String(card?.content).replace(`${CARD_FRAME}\n\n`, '') },
        ...tail,
      ]),
    ).toEqual(['messages[2] is the bare card, without a frame']);
  });

  it('fails a tail of too few or too many groups, or over the tail max', () => {
    expect(rebuiltAs((rebuilt) => rebuilt, 1)).toEqual(['the tail has 1 turn groups, not 2-8']);
    const run = new AgentRunHistory({ limits: { ...SMALL_LIMITS, tailMaxBytes: 4_000 } });
    while (Buffer.byteLength(JSON.stringify(run.request())) <= run.limits.compactionTriggerBytes) run.turn();
    run.compact({ tailGroups: 3 }).turn();
    expect(resultOf(run, 'rebuild.contract').evidence[0]).toMatch(/the tail is [\d,]+ bytes > tail max 4,000$/);
  });

  describe('judges every bound of the tail exactly', () => {
    /** Ten turns, then a compaction that keeps `tailGroups` groups (edited by `rebuild`), then a turn. */
    const compacted = (tailMaxBytes: number, tailGroups: number, rebuild?: (rebuilt: Message[]) => Message[]) =>
      new AgentRunHistory({ limits: { ...SMALL_LIMITS, tailMaxBytes } })
        .turns(10, { tools: [500] })
        .compact({ tailGroups, ...(rebuild && { rebuild }) })
        .turn();
    const before = new AgentRunHistory().turns(10, { tools: [500] }).dialog;
    const tailBytes = (groups: number) => Buffer.byteLength(JSON.stringify(lastGroups(before, groups)));
    const verdict = (run: AgentRunHistory) => {
      const result = resultOf(run, 'rebuild.contract');
      if (result.status === 'pass') return 'pass';
      return result.evidence.filter((line) => line.includes('first request after')).map((line) => line.split(': ').slice(1).join(': '));
    };
    /** The last tool output replaced by a placeholder, as a kernel eliding inside the tail leaves it. */
    const elideLast = (rebuilt: Message[]) =>
      rebuilt.map((m, i) => (i === rebuilt.length - 1 ? ({ ...m, content: '[elided: tool output, 500 bytes]' } as Message) : m));

    it('2 and 8 groups pass; 1 and 9 fail', () => {
      expect(verdict(compacted(100_000, 2))).toBe('pass');
      expect(verdict(compacted(100_000, 8))).toBe('pass');
      expect(verdict(compacted(100_000, 1))).toEqual(['the tail has 1 turn groups, not 2-8']);
      expect(verdict(compacted(100_000, 9))).toEqual(['the tail has 9 turn groups, not 2-8']);
    });

    it('a tail of exactly the tail max passes; one byte more fails', () => {
      const three = tailBytes(3);
      expect(verdict(compacted(three, 3))).toBe('pass');
      expect(verdict(compacted(three - 1, 3))).toEqual([
        `the tail is ${three.toLocaleString('en-US')} bytes > tail max ${(three - 1).toLocaleString('en-US')}`,
      ]);
    });

    it('elision inside the tail only when the 2 groups alone pass the cap: not in a tail of 3 that passes it by a byte', () => {
      expect(verdict(compacted(tailBytes(2) - 1, 2, elideLast))).toBe('pass');
      expect(verdict(compacted(tailBytes(3) - 1, 3, elideLast))).toEqual([
        'the tail is not the last 6 messages of the dialog before compaction, verbatim',
      ]);
    });
  });

  it('fails a tail that splits a group (the split-group control) or is not the dialog verbatim', () => {
    const split = rebuiltAs(([s, u, card, , ...tail]) => [s as Message, u as Message, card as Message, ...tail]);
    expect(split).toEqual(
      expect.arrayContaining([
        'the tail starts with a tool message, not a whole group',
        expect.stringMatching(/^tail: message 0 \(tool call_\d+_0\) follows no assistant message with tool calls$/),
      ]),
    );
    const edited = rebuiltAs((rebuilt) => rebuilt.map((m, i) => (i === rebuilt.length - 1 ? ({ ...m, content: 'short' } as Message) : m)));
    expect(edited).toEqual(['the tail is not the last 4 messages of the dialog before compaction, verbatim']);
  });

  it('fails a request that drops or changes messages without a compaction', () => {
    const run = new AgentRunHistory()
      .turns(3)
      .turn({ messages: (dialog) => [dialog[0] as Message, dialog[1] as Message, ...dialog.slice(4)] });
    expect(resultOf(run, 'rebuild.contract').evidence[0]).toMatch(
      /^event \d+ \(turn 4\): the request is neither the dialog as it stood nor a rebuild after an accepted compaction: message 2 is assistant calling call_2_0 where the dialog has assistant calling call_1_0$/,
    );
  });

  it('fails any request that breaks tool contiguity', () => {
    const run = new AgentRunHistory().turns(2, { tools: [100, 100] });
    run.turn({ messages: (dialog) => [...dialog.slice(0, -2), dialog.at(-1) as Message] });
    expect(resultOf(run, 'rebuild.contract').evidence[0]).toMatch(
      /^event \d+ \(turn 3\): message 5 \(assistant\): tool call call_2_0 has no tool result after it$/,
    );
  });

  it('fails a call_model input it cannot read (a payload codec the checks lack), and judges the turns it can', () => {
    const histories = withUnreadableCall(new AgentRunHistory().turns(3).complete(), 1);
    const result = checkRun(histories as never).results.find((r) => r.id === 'rebuild.contract');
    expect(result?.status).toBe('fail');
    expect(result?.evidence).toEqual([
      expect.stringMatching(/^event \d+: call_model input: .+$/),
      '3 requests checked for tool contiguity; 0 rebuilds',
    ]);
  });

  it('does not apply to a framework without compaction whose only turn had no dialog before it to be held to', () => {
    const mapping = { ...DEFAULT_KERNEL_MAPPING, activities: { ...DEFAULT_KERNEL_MAPPING.activities, compactContext: null } };
    const judged = (turns: number) =>
      checkRun(new AgentRunHistory().turns(turns).histories() as never, { mapping }).results.find((r) => r.id === 'rebuild.contract');
    expect(judged(1)).toMatchObject({
      status: 'not-applicable',
      evidence: [
        '1 requests checked for tool contiguity; 0 rebuilds',
        '0 turns held to the dialog as it stood (append-only; no compaction to rebuild after)',
      ],
    });
    expect(judged(2)?.status).toBe('pass');
  });

  it("judges a rebuild whose compaction's input holds no dialog (a digest-only kernel), or whose displaced dialog the history lacks", () => {
    const judged = (run: AgentRunHistory, mapping = DEFAULT_KERNEL_MAPPING) =>
      checkRun(run.histories() as never, { mapping }).results.find((r) => r.id === 'rebuild.contract');
    const digestOnly = judged(overTrigger().compact().turn(), DIGEST_ONLY_MAPPING);
    expect(digestOnly?.status).toBe('pass');
    expect(digestOnly?.evidence[0]).toMatch(/^event \d+ \(turn \d+\): rebuilt with \d+ turn groups, tail [\d,]+ bytes$/);
    // A continued execution that carries nothing in its input: the compaction's input is all the dialog there is.
    const unheld = overTrigger()
      .continueAsNew({ resume: () => undefined as unknown as Resume })
      .compact()
      .turn();
    const result = judged(unheld);
    expect(result?.status).toBe('pass');
    expect(result?.evidence[0]).toMatch(/^execution 2 event \d+ \(turn \d+\): rebuilt with \d+ turn groups/);
  });

  it('is not applicable without a rebuild, once every request kept the contract', () => {
    expect(resultOf(new AgentRunHistory().turns(3).complete(), 'rebuild.contract')).toMatchObject({
      status: 'not-applicable',
      evidence: ['4 requests checked for tool contiguity; 0 rebuilds'],
    });
  });
});
