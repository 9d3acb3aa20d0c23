import { describe, expect, it } from 'vitest';
import { ACTIVITY, GENESIS_HASH, type Resume, type RunInput } from '../../contract/kernel-api.ts';
import { checkRun } from '../index.ts';
import { AgentRunHistory, type ContinueOptions, resultOf, SMALL_LIMITS } from '../testing/index.ts';
import { scheduledOf } from '../testing/storage-reference.ts';

function carried(edit: (resume: Resume) => Resume): AgentRunHistory {
  return new AgentRunHistory()
    .turns(3, { tools: [1500, 800] })
    .continueAsNew({ resume: edit })
    .turn()
    .complete();
}

/** The resume with its last message's content changed. */
function lastMessageChanged(resume: Resume): Resume {
  return { ...resume, messages: resume.messages.map((m, i) => (i === resume.messages.length - 1 ? { ...m, content: 'changed' } : m)) };
}

/** The resume with its tool outputs elided, as a kernel elides a ContinueAsNew input to fit. */
function elideToolOutputs(resume: Resume): Resume {
  return {
    ...resume,
    messages: resume.messages.map((m) =>
      m.role === 'tool' && typeof m.content === 'string'
        ? { ...m, content: `[elided: tool output, ${Buffer.byteLength(m.content)} bytes]` }
        : m,
    ),
  };
}

/**
 * A ContinueAsNew whose input had its tool outputs elided, the elision journaled under
 * `journalTurn(next)`, where `next` is the turn the carried dialog is for.
 */
function elidedCarry(journalTurn: (next: number) => number, run = new AgentRunHistory().turns(3, { tools: [1500, 800] })): AgentRunHistory {
  const turn = journalTurn(run.turnNumber + 1);
  run.journal('payload.elided', { turn, payload: 'continue_as_new', items: 2, tool_outputs: 2 }, { turn });
  return run.continueAsNew({ resume: elideToolOutputs }).turn().complete();
}

describe('can.carry-over', () => {
  it('passes when the dialog, counters and journal head are carried exactly', () => {
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).play(30).complete();
    const result = resultOf(run, 'can.carry-over');
    expect(result.status).toBe('pass');
    expect(result.evidence[0]).toMatch(/^execution 1 event \d+: ContinueAsNew: carried \d+ messages after \d+ call_model$/);
  });

  it('passes after a failed tool, whose message content the history cannot know', () => {
    const run = new AgentRunHistory()
      .turn({ failedTools: [0] })
      .continueAsNew()
      .turn();
    expect(resultOf(run, 'can.carry-over').status).toBe('pass');
  });

  it('fails when a message of the dialog is lost', () => {
    const result = resultOf(
      carried((r) => ({ ...r, messages: r.messages.slice(0, -1) })),
      'can.carry-over',
    );
    expect(result.status).toBe('fail');
    expect(result.evidence[0]).toMatch(/resume\.messages is not the dialog as it stood: 10 messages where the dialog has 11$/);
  });

  it("passes a ContinueAsNew input elided under the next turn's journal entry", () => {
    expect(
      resultOf(
        elidedCarry((next) => next),
        'can.carry-over',
      ).status,
    ).toBe('pass');
  });

  it('holds the carried dialog whole when the elision is journaled under another turn', () => {
    for (const journalTurn of [(next: number) => next + 1, (next: number) => next - 1]) {
      const result = resultOf(elidedCarry(journalTurn), 'can.carry-over');
      expect(result.status).toBe('fail');
      expect(result.evidence.join('\n')).toMatch(
        /resume\.messages is not the dialog as it stood: message \d+ \(tool call_\d+_\d+\) differs/,
      );
    }
  });

  it('fails when a tool result is carried changed', () => {
    const result = resultOf(carried(lastMessageChanged), 'can.carry-over');
    expect(result.evidence[0]).toMatch(/message 10 \(tool call_3_1\) differs from the dialog's$/);
  });

  it('fails when a counter does not continue', () => {
    const turns = resultOf(
      carried((r) => ({ ...r, counters: { ...r.counters, turns: 2 } })),
      'can.carry-over',
    );
    expect(turns.evidence).toEqual([expect.stringMatching(/: counters\.turns is 2, expected 3$/)]);
    const executions = resultOf(
      carried((r) => ({ ...r, counters: { ...r.counters, executions: r.counters.executions + 1 } })),
      'can.carry-over',
    );
    expect(executions.evidence).toEqual([expect.stringMatching(/: counters\.executions is 2, expected 1$/)]);
    const bytes = resultOf(
      carried((r) => ({ ...r, counters: { ...r.counters, totalRequestBytes: 0 } })),
      'can.carry-over',
    );
    expect(bytes.evidence).toEqual([expect.stringMatching(/: counters\.totalRequestBytes is 0, expected [\d,]+$/)]);
  });

  it('fails when the journal head is not the last journal event', () => {
    const result = resultOf(
      carried((r) => ({ ...r, journal: { nextSeq: r.journal.nextSeq - 1, headHash: r.journal.headHash } })),
      'can.carry-over',
    );
    expect(result.evidence).toEqual([
      expect.stringMatching(/: journal head is seq 5 hash [0-9a-f]{12}, expected seq 6 hash [0-9a-f]{12} \(the last journal event\)$/),
    ]);
    // The right seq with another hash (a head carried from before the last append's answer).
    const rehashed = resultOf(
      carried((r) => ({ ...r, journal: { ...r.journal, headHash: 'f'.repeat(64) } })),
      'can.carry-over',
    );
    expect(rehashed.evidence).toEqual([
      expect.stringMatching(/: journal head is seq 6 hash ffffffffffff, expected seq 6 hash [0-9a-f]{12}/),
    ]);
  });

  it('fails when the input changes beyond resume, or carries no resume', () => {
    const changed = new AgentRunHistory().turn();
    changed.continueAsNew({ resume: (r) => r });
    const json = changed.histories();
    const first = json[0] as { events: Record<string, Record<string, unknown>>[] };
    const can = first.events.at(-1) as Record<string, Record<string, unknown>>;
    const attributes = can.workflowExecutionContinuedAsNewEventAttributes as { input: { payloads: { data: string }[] } };
    const payload = attributes.input.payloads[0] as { data: string };
    const input = JSON.parse(Buffer.from(payload.data, 'base64').toString());
    payload.data = Buffer.from(JSON.stringify({ ...input, systemPrompt: 'Be brief.', resume: undefined })).toString('base64');
    const result = checkRun([first]).results.find((r) => r.id === 'can.carry-over');
    expect(result?.evidence).toEqual([
      expect.stringMatching(/ContinueAsNew: the input changed beyond resume \(systemPrompt\)$/),
      expect.stringMatching(/ContinueAsNew: the input carries no resume$/),
    ]);
  });

  it('judges a dialog compacted just before ContinueAsNew by the rebuild contract', () => {
    const rebuilt = new AgentRunHistory({ limits: SMALL_LIMITS }).turns(4).compact().continueAsNew().turn();
    expect(resultOf(rebuilt, 'can.carry-over').status).toBe('pass');
    const stale = new AgentRunHistory({ limits: SMALL_LIMITS }).turns(4);
    const before = stale.dialog;
    stale.compact().continueAsNew({ resume: (r) => ({ ...r, messages: before }) });
    expect(resultOf(stale, 'can.carry-over').evidence).toContainEqual(
      expect.stringMatching(
        /resume\.messages after compaction: system messages after the user request at \[\]; exactly one card message at \[2\] expected$/,
      ),
    );
  });

  it('is not applicable without ContinueAsNew', () => {
    expect(resultOf(new AgentRunHistory().turn().complete(), 'can.carry-over').status).toBe('not-applicable');
  });

  it('reads the turn an execution without a turn of its own carries over from its resume', () => {
    // Resumed at turn 3, the execution continues as new at once: its carried dialog is for turn 4.
    const resumed = () => new AgentRunHistory().turns(3, { tools: [1500, 800] }).continueAsNew();
    expect(
      resultOf(
        elidedCarry((next) => next, resumed()),
        'can.carry-over',
      ).status,
    ).toBe('pass');
    const other = resultOf(
      elidedCarry((next) => next - 1, resumed()),
      'can.carry-over',
    );
    expect(other.status).toBe('fail');
    expect(other.evidence.join('\n')).toMatch(
      /execution 2 event \d+: ContinueAsNew: resume\.messages is not the dialog as it stood: message \d+ \(tool call_\d+_\d+\) differs/,
    );
  });

  it("takes only a payload.elided for the ContinueAsNew's elision, not another event journaled under the next turn", () => {
    // A compaction that failed at the end of the execution journals context.compaction_failed under the next turn.
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).turns(3, { tools: [1500, 800] }).compact({ outcome: 'failed' });
    run.continueAsNew({ resume: elideToolOutputs }).turn();
    const result = resultOf(run, 'can.carry-over');
    expect(result.status).toBe('fail');
    expect(result.evidence[0]).toMatch(/resume\.messages is not the dialog as it stood: message \d+ \(tool call_\d+_\d+\) differs/);
  });

  it('takes an elision under any turn where the model calls do not name their turns', () => {
    const unnamed = (run: AgentRunHistory) => {
      const histories = structuredClone(run.histories());
      for (const call of scheduledOf(histories[0] as never, 'call_model')) {
        const payload = (call.input as { payloads: { data: string }[] }).payloads[0] as { data: string };
        const { turn, ...input } = JSON.parse(Buffer.from(payload.data, 'base64').toString());
        payload.data = Buffer.from(JSON.stringify(input)).toString('base64');
      }
      return checkRun(histories).results.find((r) => r.id === 'can.carry-over');
    };
    expect(unnamed(elidedCarry((next) => next + 1))?.status).toBe('pass');
    // The dialog is still read: the same elision journaled nowhere fails.
    expect(unnamed(carried(elideToolOutputs))?.evidence[0]).toMatch(
      /resume\.messages is not the dialog as it stood: message \d+ \(tool call_\d+_\d+\) differs/,
    );
  });

  it('fails a next execution that did not start with the input the ContinueAsNew carried (a history set mixed from two runs)', () => {
    /** The run's histories, execution 2 started with its input edited. */
    const startedWith = (edit: (input: RunInput) => RunInput) => {
      const histories = structuredClone(carried((r) => r).histories());
      const started = histories[1]?.events[0]?.workflowExecutionStartedEventAttributes as { input: { payloads: { data: string }[] } };
      const payload = started.input.payloads[0] as { data: string };
      payload.data = Buffer.from(JSON.stringify(edit(JSON.parse(Buffer.from(payload.data, 'base64').toString())))).toString('base64');
      return checkRun(histories).results.find((r) => r.id === 'can.carry-over')?.evidence ?? [];
    };
    const mixed = /^execution 1 event \d+: ContinueAsNew: execution 2 did not start with the input the ContinueAsNew carried$/;
    expect(startedWith((input) => input)).not.toContainEqual(expect.stringMatching(mixed));
    const resumed = (edit: (resume: Resume) => Resume) => (input: RunInput) => ({ ...input, resume: edit(input.resume as Resume) });
    const edits: Record<string, (input: RunInput) => RunInput> = {
      'another system prompt': (input) => ({ ...input, systemPrompt: 'Be brief.' }),
      'no resume': ({ resume, ...input }) => input,
      'a message fewer': resumed((r) => ({ ...r, messages: r.messages.slice(0, -1) })),
      'a message changed': resumed((r) => ({ ...r, messages: r.messages.map((m, i) => (i === 2 ? { ...m, content: 'changed' } : m)) })),
      'other counters': resumed((r) => ({ ...r, counters: { ...r.counters, compactions: 1 } })),
      'another journal seq': resumed((r) => ({ ...r, journal: { ...r.journal, nextSeq: r.journal.nextSeq + 1 } })),
      'another journal hash': resumed((r) => ({ ...r, journal: { ...r.journal, headHash: 'f'.repeat(64) } })),
    };
    for (const [name, edit] of Object.entries(edits)) expect(startedWith(edit), name).toContainEqual(expect.stringMatching(mixed));
  });

  it('fails a ContinueAsNew whose input cannot be read', () => {
    const histories = structuredClone(carried((r) => r).histories());
    const can = histories[0]?.events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes as { input: unknown };
    // Encrypted by a payload codec: the checks cannot read it without the codec.
    can.input = { payloads: [{ metadata: { encoding: Buffer.from('binary/encrypted').toString('base64') }, data: 'AAAA' }] };
    const result = checkRun(histories).results.find((r) => r.id === 'can.carry-over');
    expect(result?.status).toBe('fail');
    expect(result?.evidence[0]).toMatch(/^execution 1 event \d+: ContinueAsNew: \S.*binary\/encrypted/);
  });

  it("counts a turn's completed model call only: not one that failed before it, nor a turn whose only call failed", () => {
    /** Two turns, then a model call of turn 3 that fails (the model unavailable). */
    const failedCall = () => {
      const run = new AgentRunHistory().turns(2);
      run.history.workflowTask();
      const input = { runId: run.input.runId, turn: 3, request: run.request() };
      run.history.activityFailed(run.history.activityScheduled('call_model', input), 'model unavailable', 'HttpUnavailable');
      return run;
    };
    const retried = failedCall().turn().continueAsNew().turn().complete();
    expect(resultOf(retried, 'can.carry-over').status).toBe('pass');
    const abandoned = failedCall().continueAsNew().turn().complete();
    expect(resultOf(abandoned, 'can.carry-over').status).toBe('pass');
    // Counted, the failed call would make three turns.
    const counted = failedCall().continueAsNew({ resume: (r) => ({ ...r, counters: { ...r.counters, turns: 3 } }) });
    expect(resultOf(counted, 'can.carry-over').evidence).toEqual([expect.stringMatching(/: counters\.turns is 3, expected 2$/)]);
  });

  it('judges a ContinueAsNew right after a compaction on the dialog at the end where the compaction input cannot be read', () => {
    const judged = (options: ContinueOptions = {}) => {
      const run = new AgentRunHistory({ limits: SMALL_LIMITS }).turns(4).compact().continueAsNew(options).turn();
      const histories = structuredClone(run.histories());
      // Encrypted by a payload codec: the checks cannot read it without the codec.
      (scheduledOf(histories[0] as never, ACTIVITY.compactContext)[0] as { input: unknown }).input = {
        payloads: [{ metadata: { encoding: Buffer.from('binary/encrypted').toString('base64') }, data: 'AAAA' }],
      };
      return checkRun(histories).results.find((r) => r.id === 'can.carry-over');
    };
    expect(judged()?.status).toBe('pass');
    // The tail is still held to the dialog the execution ended with.
    const changed = judged({
      resume: lastMessageChanged,
    });
    expect(changed?.status).toBe('fail');
    expect(changed?.evidence[0]).toMatch(/: ContinueAsNew: resume\.messages after compaction: /);
  });

  it('holds the tail of a dialog compacted just before ContinueAsNew verbatim, not by its call ids', () => {
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).turns(4).compact();
    run.continueAsNew({
      resume: lastMessageChanged,
    });
    const result = resultOf(run, 'can.carry-over');
    expect(result.status).toBe('fail');
    expect(result.evidence[0]).toMatch(/: ContinueAsNew: resume\.messages after compaction: /);
  });

  it('leaves the request bytes carried unjudged where a model call cannot be read, and judges the other counters', () => {
    /** The run's histories with execution 1's second model call encrypted by a payload codec. */
    const encrypted = (run: AgentRunHistory) => {
      const histories = structuredClone(run.histories());
      (scheduledOf(histories[0] as never, 'call_model')[1] as { input: unknown }).input = {
        payloads: [{ metadata: { encoding: Buffer.from('binary/encrypted').toString('base64') }, data: 'AAAA' }],
      };
      return checkRun(histories).results.find((r) => r.id === 'can.carry-over');
    };
    expect(encrypted(carried((r) => r))?.status).toBe('pass');
    expect(encrypted(carried((r) => ({ ...r, counters: { ...r.counters, turns: 2 } })))?.evidence).toEqual([
      expect.stringMatching(/: counters\.turns is 2, expected 3$/),
    ]);
  });

  it('expects the journal head of the last execution that journaled, or the genesis, after an execution that journaled nothing', () => {
    /** ContinueAsNew without a journal event of its own (a kernel that journals less than ours), carrying `journal`. */
    const silently = (run: AgentRunHistory, journal = run.journalHead) => {
      run.history.workflowTask();
      run.history.continuedAsNew('next', { ...run.input, resume: { messages: run.dialog, counters: { ...run.counters }, journal } });
      return resultOf(run, 'can.carry-over');
    };
    expect(silently(new AgentRunHistory({ journalsStart: false })).status).toBe('pass');
    expect(silently(new AgentRunHistory().turns(2).continueAsNew()).status).toBe('pass');
    const genesis = new AgentRunHistory().turns(2).continueAsNew();
    expect(silently(genesis, { nextSeq: 1, headHash: GENESIS_HASH }).evidence[0]).toMatch(
      /^execution 2 event \d+: ContinueAsNew: journal head is seq 1 hash 000000000000, expected seq 5 hash [0-9a-f]{12} \(the last journal event\)$/,
    );
  });
});
