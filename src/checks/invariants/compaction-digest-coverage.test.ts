/**
 * compaction.digest-coverage on a recorded v1 run (test/corpus) that compacts twice, the second
 * time over the first card: it holds, and fails once the compaction's input is edited the way a
 * digest that leaves something out would show it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { ContentPart, Message } from '../../contract/messages.ts';
import { checkRun, loadHistory } from '../index.ts';
import { DIGEST_ONLY_MAPPING } from '../testing/digest-only-mapping.ts';
import { AgentRunHistory, resultOf, SMALL_LIMITS } from '../testing/index.ts';

function overTrigger(): AgentRunHistory {
  const run = new AgentRunHistory({ limits: SMALL_LIMITS });
  while (Buffer.byteLength(JSON.stringify(run.request())) <= run.limits.compactionTriggerBytes) run.turn();
  return run;
}

const corpus = new URL('../../../test/corpus/v1/', import.meta.url);
const RUN = 'corpus-20261201-run-0000';

type Payload = { data?: string };
type Event = { activityTaskScheduledEventAttributes?: { activityType: { name: string }; input: { payloads: Payload[] } } };
type RecordedMessage = { role: string; content: unknown; tool_calls?: unknown[] };

function executions(): { events: Event[] }[] {
  return readdirSync(corpus)
    .filter((file) => file.startsWith(`${RUN}-execution-`))
    .sort()
    .map((file) => JSON.parse(gunzipSync(readFileSync(new URL(file, corpus))).toString('utf8')));
}

/** The run with every compact_context input's messages changed by `edit`. */
function withCompactionInputs(edit: (messages: RecordedMessage[]) => RecordedMessage[]) {
  return executions().map((history) => {
    for (const event of history.events) {
      const scheduled = event.activityTaskScheduledEventAttributes;
      if (scheduled?.activityType.name !== 'kernel.compact_context') continue;
      const payload = scheduled.input.payloads[0] as Payload;
      const input = JSON.parse(Buffer.from(payload.data as string, 'base64').toString('utf8'));
      input.messages = edit(input.messages);
      payload.data = Buffer.from(JSON.stringify(input)).toString('base64');
    }
    return history;
  });
}

function coverage(histories: { events: Event[] }[]) {
  const loaded = histories.map((json, i) => loadHistory(json as never, { source: `v1 ${RUN} execution ${i + 1}` }));
  return checkRun(loaded, { limits: { blobLimitBytes: 65_536 } }).results.find((r) => r.id === 'compaction.digest-coverage');
}

describe('compaction.digest-coverage', () => {
  it('holds on the recorded v1 run: both compactions are shown what they displace, the second the first card', () => {
    const result = coverage(executions());
    expect(result?.status).toBe('pass');
    expect(result?.evidence).toEqual([
      "execution 1 event 173 (turn 10), the compaction's input shows the 15 messages it displaces",
      "execution 2 event 20 (turn 14), the compaction's input shows the 10 messages it displaces",
    ]);
  });

  it('fails a digest that leaves out system messages: the earlier card, and with it its identifiers', () => {
    const result = coverage(withCompactionInputs((messages) => messages.filter((m, i) => i === 0 || m.role !== 'system')));
    expect(result?.status).toBe('fail');
    expect(result?.evidence[0]).toMatch(
      /^execution 2 event 20 \(turn 14\), the compaction's input leaves out an earlier card \(system message\)/,
    );
    expect(result?.evidence[1]).toMatch(/misses \d+ identifiers of the card accepted at execution 1 event 173/);
  });

  it("fails a digest that leaves out the assistant's texts", () => {
    const result = coverage(
      withCompactionInputs((messages) => messages.map((m) => (m.role === 'assistant' ? { ...m, content: null } : m))),
    );
    expect(result?.status).toBe('fail');
    expect(result?.evidence[0]).toMatch(
      /^execution 1 event 173 \(turn 10\), the compaction's input leaves out the assistant message calling /,
    );
  });

  it('fails a digest that leaves out the tool results', () => {
    const result = coverage(withCompactionInputs((messages) => messages.filter((m) => m.role !== 'tool')));
    expect(result?.status).toBe('fail');
    expect(result?.evidence[0]).toMatch(/^execution 1 event 173 \(turn 10\), the compaction's input leaves out the tool result for /);
  });

  it('takes a tool output elided to a placeholder (an input past the blob limit), not one elided to nothing', () => {
    const sentWith = (content: (bytes: number) => string) => {
      const run = new AgentRunHistory({ limits: SMALL_LIMITS });
      while (Buffer.byteLength(JSON.stringify(run.request())) <= run.limits.compactionTriggerBytes) run.turn();
      const first = run.dialog.findIndex((m) => m.role === 'tool');
      const bytes = Buffer.byteLength(run.dialog[first]?.content as string);
      const sent = (before: Message[]) => before.map((m, i) => (i === first ? ({ ...m, content: content(bytes) } as Message) : m));
      return resultOf(run.compact({ sent }).turn(), 'compaction.digest-coverage');
    };
    expect(sentWith((bytes) => `[elided: tool output, ${bytes} bytes]`).status).toBe('pass');
    const emptied = sentWith(() => '');
    expect(emptied.status).toBe('fail');
    expect(emptied.evidence[0]).toMatch(
      /the compaction's input leaves out the tool result for \S+ \(message 3 of the dialog it displaces\)$/,
    );
  });

  it("judges a failed compaction's input against all but the first two messages, and takes no card from it", () => {
    const run = overTrigger();
    const leaving = run.dialog.length - 2;
    const retried = resultOf(run.compact({ outcome: 'failed' }).compact().turn(), 'compaction.digest-coverage');
    expect(retried.status).toBe('pass');
    expect(retried.evidence[0]).toMatch(new RegExp(`the compaction's input shows the ${leaving} messages it displaces$`));
    const withoutFirstTool = (before: Message[]) => before.filter((_m, i) => i !== before.findIndex((n) => n.role === 'tool'));
    const failed = resultOf(overTrigger().compact({ outcome: 'failed', sent: withoutFirstTool }).turn(), 'compaction.digest-coverage');
    expect(failed.status).toBe('fail');
    expect(failed.evidence[0]).toMatch(/leaves out the tool result for \S+ \(message 3 of the dialog it displaces\)$/);
  });

  it('takes a tool result the history lacks (its run_tool failed) as shown by any message with its call id, and fails its absence', () => {
    const run = (sent?: (before: Message[]) => Message[]) =>
      resultOf(
        overTrigger()
          .turn({ tools: [2_000, 2_000], failedTools: [0] })
          .compact({ outcome: 'failed', ...(sent && { sent }) })
          .turn(),
        'compaction.digest-coverage',
      );
    expect(run().status).toBe('pass');
    const failedCall = (m: Message) => m.role === 'tool' && m.content === 'error: sandbox unavailable';
    const left = run((before) => before.filter((m) => !failedCall(m)));
    expect(left.status).toBe('fail');
    // Named by its call id: the result of the turn's other call does not stand in for it.
    expect(left.evidence).toEqual([
      expect.stringMatching(/leaves out the tool result for call_\d+_0 \(message \d+ of the dialog it displaces\)$/),
    ]);
  });

  it('takes a screenshot and its caption elided to a placeholder, or the screenshot kept, not both elided to nothing', () => {
    const shot: ContentPart[] = [{ type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(3_000)}` } }];
    const sent = (content: Message['content']) => (before: Message[]) =>
      before.map((m) => (m.role === 'tool' && Array.isArray(m.content) ? ({ ...m, content } as Message) : m));
    const caption: ContentPart[] = [{ type: 'text', text: 'Screenshot of the order page after the fix.' }];
    const run = (content: Message['content'], held = [...caption, ...shot]) =>
      resultOf(
        new AgentRunHistory({ limits: SMALL_LIMITS })
          .turn({ tools: [held] })
          .turn()
          .compact({ outcome: 'failed', sent: sent(content) })
          .turn(),
        'compaction.digest-coverage',
      );
    expect(run('[elided: screenshot, 3,022 bytes]').status).toBe('pass');
    expect(run(shot).status).toBe('pass');
    // Its screenshot kept, an emptied text beside it leaves the message shown.
    expect(run([{ type: 'text', text: '' }, ...shot]).status).toBe('pass');
    const emptied = run('');
    expect(emptied.status).toBe('fail');
    expect(emptied.evidence[0]).toMatch(/leaves out the tool result for call_1_0 \(message 3 of the dialog it displaces\)$/);
    // A screenshot alone, without a text to show, is no less left out when emptied.
    expect(run('', shot).status).toBe('fail');
    expect(run('[elided: screenshot, 3,022 bytes]', shot).status).toBe('pass');
  });

  describe('a chat run, whose user speaks again', () => {
    const ask = (dialog: Message[]): Message[] => [...dialog, { role: 'user', content: 'Anything else to check?' }];
    /** A run whose user asked the same twice and was answered the same twice, then a failed compaction sent `sent`. */
    const chat = (sent: (before: Message[]) => Message[]) =>
      resultOf(
        new AgentRunHistory({ limits: SMALL_LIMITS })
          .turns(2)
          .turn({ final: true })
          .turn({ final: true, messages: ask })
          .turn({ final: true, messages: ask })
          .compact({ outcome: 'failed', sent })
          .turn({ messages: ask }),
        'compaction.digest-coverage',
      );

    it('fails a digest that shows two identical exchanges as one', () => {
      expect(chat((before) => before).status).toBe('pass');
      const once = chat((before) => before.slice(0, -2));
      expect(once.status).toBe('fail');
      expect(once.evidence).toEqual([
        expect.stringMatching(/leaves out a user turn \(message 9 of the dialog it displaces\)$/),
        expect.stringMatching(/leaves out an assistant text \(message 10 of the dialog it displaces\)$/),
      ]);
    });

    it('fails a user turn elided to a placeholder (only tool outputs and assistant texts may be), and takes an assistant text so elided', () => {
      const elide = (role: string) => (before: Message[]) =>
        before.map((m, i) =>
          i > 1 && m.role === role && typeof m.content === 'string' ? ({ ...m, content: '[elided: text, 32 bytes]' } as Message) : m,
        );
      const user = chat(elide('user'));
      expect(user.status).toBe('fail');
      expect(user.evidence[0]).toMatch(/leaves out a user turn \(message 7 of the dialog it displaces\)$/);
      expect(chat(elide('assistant')).status).toBe('pass');
    });
  });

  it('takes an empty text sent as no text: it held nothing a digest could show', () => {
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).turns(2);
    const calling = run.dialog.findIndex((m) => m.role === 'assistant');
    const empty = (dialog: Message[]) => dialog.map((m, i) => (i === calling ? ({ ...m, content: '' } as Message) : m));
    run.turn({ messages: empty });
    const nulled = (dialog: Message[]) => dialog.map((m, i) => (i === calling ? ({ ...m, content: null } as Message) : m));
    expect(resultOf(run.compact({ outcome: 'failed', sent: nulled }).turn(), 'compaction.digest-coverage').status).toBe('pass');
  });

  it('does not judge a compaction whose input holds no dialog (a digest-only kernel) or that no turn follows in its execution', () => {
    const digestOnly = checkRun(overTrigger().compact().turn().histories() as never, { mapping: DIGEST_ONLY_MAPPING });
    expect(digestOnly.results.find((r) => r.id === 'compaction.digest-coverage')).toMatchObject({
      status: 'not-applicable',
      evidence: [expect.stringMatching(/^event \d+: the compaction's input or the dialog it displaces is not in the history; not judged$/)],
    });
    const atTheEnd = resultOf(overTrigger().compact().continueAsNew().turn(), 'compaction.digest-coverage');
    expect(atTheEnd).toMatchObject({
      status: 'not-applicable',
      evidence: [
        expect.stringMatching(
          /^execution 1 event \d+: the compaction's input or the dialog it displaces is not in the history; not judged$/,
        ),
      ],
    });
  });

  it('does not apply to a run that never compacts', () => {
    const result = resultOf(new AgentRunHistory().turn().complete(), 'compaction.digest-coverage');
    expect(result.status).toBe('not-applicable');
    expect(result.evidence).toEqual(['no compaction']);
  });
});
