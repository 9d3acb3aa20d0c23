import { describe, expect, it } from 'vitest';
import { journalHash } from '../../contract/journal-hash.ts';
import { GENESIS_HASH } from '../../contract/kernel-api.ts';
import type { Message } from '../../contract/messages.ts';
import { checkRun } from '../index.ts';
import { DEFAULT_KERNEL_MAPPING } from '../mapping.ts';
import { AgentRunHistory, resultOf, SMALL_LIMITS } from '../testing/index.ts';

describe('journal.chain', () => {
  it('passes one unbroken chain across executions', () => {
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).play(30).complete();
    expect(run.executions.length).toBeGreaterThan(1);
    const result = resultOf(run, 'journal.chain');
    expect(result.status).toBe('pass');
    const head = run.journalHead;
    expect(result.evidence.at(-1)).toMatch(
      new RegExp(`^\\d+ journal events, head seq ${head.nextSeq - 1} hash ${head.headHash.slice(0, 12)}$`),
    );
  });

  it('fails a gap in seq, a wrong prevHash and another run id', () => {
    const run = new AgentRunHistory().turn();
    run.journal('payload.elided', { turn: 1, payload: 'request' }, { seq: run.journalHead.nextSeq + 1 });
    run.journal('payload.elided', { turn: 1, payload: 'request' }, { prevHash: GENESIS_HASH });
    run.journal('payload.elided', { turn: 1, payload: 'request' }, { runId: 'run-other' });
    const evidence = resultOf(run, 'journal.chain').evidence;
    expect(evidence).toEqual([
      expect.stringMatching(/^event \d+: journal payload\.elided seq 4, expected seq 3$/),
      expect.stringMatching(
        /^event \d+: journal payload\.elided seq 5 prevHash 000000000000 is not the hash of the event before \([0-9a-f]{12}\)$/,
      ),
      expect.stringMatching(/^event \d+: journal payload\.elided seq 6 names run run-other, not run-0001$/),
      'turn.completed for turns 1-1, each once',
      expect.stringMatching(/^5 journal events/),
    ]);
  });

  it('starts the chain at the seq the kernel mapping says', () => {
    const mapping = { ...DEFAULT_KERNEL_MAPPING, journalFirstSeq: 0 };
    const histories = new AgentRunHistory().turn().histories();
    const evidence = checkRun(histories, { mapping }).results.find((r) => r.id === 'journal.chain')?.evidence;
    expect(evidence?.[0]).toMatch(/^event \d+: journal run\.started seq 1, expected seq 0$/);
  });

  it('fails when the journal activity returns other hashes than the events hash to', () => {
    const run = new AgentRunHistory();
    const event = {
      runId: 'run-0001',
      seq: 2,
      type: 'turn.completed' as const,
      turn: 1,
      data: { turn: 1 },
      prevHash: run.journalHead.headHash,
    };
    run.history.activity('journal.append', { events: [event] }, { hashes: ['f'.repeat(64)] });
    expect(resultOf(run, 'journal.chain').evidence[0]).toBe(
      `event ${run.history.lastEventId - 2}: journal.append returned hash ffffffffffff for seq 2; the event hashes to ${journalHash(event).slice(0, 12)}`,
    );
    // An append that returns fewer hashes than it was given events.
    const short = new AgentRunHistory();
    short.history.activity('journal.append', { events: [{ ...event, prevHash: short.journalHead.headHash }] }, { hashes: [] });
    expect(resultOf(short, 'journal.chain').evidence[0]).toMatch(/journal\.append returned hash none for seq 2; the event hashes to/);
  });

  it('counts an append still pending at ContinueAsNew (its event may be written) and fails the stale head after it', () => {
    const run = new AgentRunHistory().turn().continueAsNew({ pendingJournal: true }).turn();
    expect(resultOf(run, 'journal.chain').evidence).toEqual([
      expect.stringMatching(/^execution 2 event \d+: journal turn\.completed seq 3, expected seq 4$/),
      expect.stringMatching(
        /^execution 2 event \d+: journal turn\.completed seq 3 prevHash [0-9a-f]{12} is not the hash of the event before/,
      ),
      expect.stringMatching(/^execution 1 event \d+: journal\.append still pending when the execution closed$/),
      'turn.completed for turns 1-2, each once',
      expect.stringMatching(/journal events/),
    ]);
    expect(resultOf(run, 'can.carry-over').evidence[0]).toMatch(/journal head is seq 3 hash [0-9a-f]{12}, expected seq 4/);
    expect(resultOf(run, 'can.clean-boundary').evidence[0]).toMatch(/ContinueAsNew with pending activity journal\.append/);
  });

  it('leaves out the events of a failed append, which the kernel sends again', () => {
    const run = new AgentRunHistory();
    const event = { runId: 'run-0001', seq: 2, type: 'payload.elided' as const, turn: 1, data: {}, prevHash: run.journalHead.headHash };
    run.history.activityFailed(run.history.activityScheduled('journal.append', { events: [event] }), 'store down');
    run.journal('payload.elided', { payload: 'request' });
    const result = resultOf(run, 'journal.chain');
    expect(result.status).toBe('pass');
    expect(result.evidence).toContainEqual(expect.stringMatching(/^event \d+: journal\.append failed; its events are not in the chain$/));
  });

  it('is not applicable without journal events', () => {
    const run = new AgentRunHistory();
    const json = run.histories()[0] as { events: { activityTaskScheduledEventAttributes?: unknown }[] };
    const bare = { events: json.events.slice(0, 3) };
    expect(checkRun([bare]).results.find((r) => r.id === 'journal.chain')).toMatchObject({
      status: 'not-applicable',
      evidence: ['no journal events'],
    });
  });
});

describe('journal.chain: the turn counter', () => {
  const journalChain = (run: AgentRunHistory) => resultOf(run, 'journal.chain');

  it('passes turns 1..N completed once each, across ContinueAsNew, and says so', () => {
    const run = new AgentRunHistory().play(3).continueAsNew().play(2).complete();
    const result = journalChain(run);
    expect(result.status).toBe('pass');
    expect(result.evidence).toContain('turn.completed for turns 1-6, each once');
  });

  it('fails a turn completed twice', () => {
    const run = new AgentRunHistory().play(2);
    run.journal('turn.completed', { turn: 2 }, { turn: 2 });
    const result = journalChain(run.turn());
    expect(result.status).toBe('fail');
    expect(result.evidence[0]).toBe('turn counter: journal seq 4: turn 2 completed again (turn 2 was the last)');
    // The "each once" note is for a counter without a slip only.
    expect(result.evidence).not.toContainEqual(expect.stringMatching(/^turn\.completed for turns/));
  });

  it('fails a turn that never completed', () => {
    const run = new AgentRunHistory().play(2);
    run.journal('turn.completed', { turn: 5 }, { turn: 5 });
    const result = journalChain(run);
    expect(result.status).toBe('fail');
    expect(result.evidence[0]).toBe('turn counter: journal seq 4: turn 5 completed, but turns 3-4 never did');
  });

  it('fails a turn.completed whose data names another turn than the event', () => {
    const run = new AgentRunHistory().play(1);
    run.journal('turn.completed', { turn: 3 }, { turn: 2 });
    expect(journalChain(run).evidence[0]).toBe("turn counter: journal seq 3: turn.completed data.turn 3 is not the event's turn 2");
  });

  it('fails a run.completed whose counters disagree with the journal', () => {
    const run = new AgentRunHistory().play(2);
    run.journal('run.completed', { ended: 'done', counters: { turns: 3 } });
    expect(journalChain(run).evidence[0]).toBe('turn counter: journal seq 4: run.completed counts 3 turns, the journal completed 2');
  });

  it('fails a run that ends at max-turns before its maxTurns, or completes more turns than maxTurns', () => {
    const early = new AgentRunHistory({ maxTurns: 5 }).play(2);
    early.journal('run.completed', { ended: 'max-turns', counters: { turns: 2 } });
    expect(journalChain(early).evidence[0]).toBe(
      'turn counter: journal seq 4: run.completed says it ended at max-turns after 2 turns, not maxTurns 5',
    );
    const over = new AgentRunHistory({ maxTurns: 2 }).play(3);
    over.journal('run.completed', { ended: 'max-turns', counters: { turns: 3 } });
    expect(journalChain(over).evidence[0]).toBe('turn counter: journal seq 5: the run completed 3 turns, over its maxTurns 2');
  });

  it('passes a run that ends at exactly its maxTurns', () => {
    const run = new AgentRunHistory({ maxTurns: 3 }).play(3);
    run.journal('run.completed', { ended: 'max-turns', counters: { turns: 3 } });
    expect(journalChain(run).status).toBe('pass');
  });

  describe("the journal's ends and the workflow's result", () => {
    /** The run's end written by hand: run.completed with `data`, then the workflow's `result`. */
    const ended = (run: AgentRunHistory, data: Record<string, unknown> | null, result: unknown) => {
      if (data) run.journal('run.completed', data);
      run.history.workflowTask();
      run.history.completed(result);
      return journalChain(run);
    };
    const counters = (run: AgentRunHistory) => ({ ...run.counters });

    it('fails a journal that does not open with run.started, or that has it twice', () => {
      const opensWithTurn = new AgentRunHistory({ journalsStart: false }).turn();
      expect(journalChain(opensWithTurn).evidence[0]).toBe(
        'journal seq 1: the journal opens with turn.completed (turn 1), not run.started at turn 0',
      );
      const twice = new AgentRunHistory().turn();
      twice.journal('run.started', { max_turns: 500, limits: { ...twice.limits } }, { turn: 0 });
      expect(journalChain(twice).evidence).toContain('journal seq 3: run.started again');
    });

    it('fails a run.started that does not echo the input: its maxTurns and every limit it names', () => {
      const run = new AgentRunHistory({ journalsStart: false, maxTurns: 7, limits: SMALL_LIMITS });
      run.journal('run.started', { limits: { ...SMALL_LIMITS, tailMaxBytes: 1 } }, { turn: 0 });
      expect(journalChain(run.turn()).evidence.slice(0, 2)).toEqual([
        "journal seq 1: run.started's max_turns is undefined, the input's maxTurns 7",
        `journal seq 1: run.started's limits.tailMaxBytes is 1, the input's ${SMALL_LIMITS.tailMaxBytes}`,
      ]);
    });

    it('fails a completed run whose journal does not close with one run.completed, saying how it ended', () => {
      const none = new AgentRunHistory().play(2);
      expect(ended(none, null, { runId: none.input.runId, ended: 'done', counters: counters(none) }).evidence[0]).toBe(
        'the run completed, and its journal has no run.completed (last: seq 3 turn.completed)',
      );
      const blank = new AgentRunHistory().play(2);
      expect(ended(blank, { ended: '' }, { runId: blank.input.runId, ended: '' }).evidence.slice(0, 2)).toEqual([
        'journal seq 4: run.completed\'s ended is "", not done or max-turns',
        'journal seq 4: run.completed carries no counters with the turns it completed',
      ]);
      const notLast = new AgentRunHistory().play(2);
      notLast.journal('run.completed', { ended: 'done', counters: counters(notLast) });
      notLast.journal('payload.elided', { turn: 2, payload: 'request' });
      expect(journalChain(notLast).evidence[0]).toBe("journal seq 4: run.completed is not the journal's last event (seq 5 is)");
    });

    it('fails a workflow result that does not say what run.completed says', () => {
      const empty = new AgentRunHistory().play(2);
      expect(ended(empty, { ended: 'done', counters: counters(empty) }, {}).evidence.slice(0, 3)).toEqual([
        "the workflow's result names run undefined, not run-0001",
        'the workflow\'s result says it ended undefined, run.completed "done"',
        expect.stringMatching(/^the workflow's result counts null, run\.completed \{"compactionFailures":0,/),
      ]);
      const uncounted = new AgentRunHistory().play(2);
      const evidence = ended(
        uncounted,
        { ended: 'done', counters: counters(uncounted) },
        { runId: 'run-0001', ended: 'done', counters: {} },
      ).evidence;
      expect(evidence[0]).toMatch(/^the workflow's result counts \{\}, run\.completed \{"compactionFailures":0,/);
    });

    it('fails a payload.elided that names no payload the contract knows', () => {
      const run = new AgentRunHistory().turn();
      run.journal('payload.elided', { turn: 1, payload: '' });
      expect(journalChain(run).evidence[0]).toBe(
        'journal seq 3: payload.elided names payload "", not request, compaction, continue_as_new',
      );
    });

    it("fails counters that disagree with the journal's compactions and failures and the executions", () => {
      const run = new AgentRunHistory().play(2);
      const counted = { ...run.counters, compactions: 1, compactionFailures: -1, executions: 2 };
      expect(
        ended(run, { ended: 'done', counters: counted }, { runId: 'run-0001', ended: 'done', counters: counted }).evidence.slice(0, 3),
      ).toEqual([
        'journal seq 4: run.completed counts compactions 1, the journal and the history 0',
        'journal seq 4: run.completed counts compactionFailures -1, the journal and the history 0',
        'journal seq 4: run.completed counts executions 2, the journal and the history 1',
      ]);
    });

    it('fails a compaction record that names another turn, and a failed one that gives no reason', () => {
      const run = new AgentRunHistory().turn();
      run.journal('context.compaction_failed', {}, { turn: 2 });
      run.journal('context.compaction_failed', { turn: 3, reason: 'HttpUnavailable: 503' }, { turn: 2 });
      expect(journalChain(run).evidence.slice(0, 3)).toEqual([
        "journal seq 3: context.compaction_failed's data names turn undefined, the event turn 2",
        'journal seq 3: context.compaction_failed gives no reason',
        "journal seq 4: context.compaction_failed's data names turn 3, the event turn 2",
      ]);
    });

    it('fails a run.continued_as_new that does not count what the next execution resumes with', () => {
      const play = (record: (data: Record<string, unknown>) => Record<string, unknown>) =>
        journalChain(new AgentRunHistory().play(2).continueAsNew({ record }).play(1));
      expect(play(() => ({})).evidence[0]).toMatch(
        /^journal seq 4: run\.continued_as_new counts null, execution 2 resumes with \{"compactionFailures":0,/,
      );
      expect(play((data) => ({ ...data, counters: {} })).evidence[0]).toMatch(
        /^journal seq 4: run\.continued_as_new counts \{\}, execution 2/,
      );
      expect(play((data) => ({ ...data, messages: 1 })).evidence[0]).toMatch(
        /^journal seq 4: run\.continued_as_new carries 1 messages, execution 2 resumes with \d+$/,
      );
      expect(play((data) => ({ ...data, messages: undefined })).status).toBe('pass');
    });

    it('passes the run as the kernel ends it', () => {
      expect(journalChain(new AgentRunHistory({ limits: SMALL_LIMITS }).play(3).complete()).status).toBe('pass');
    });
  });

  describe("the journal's figures against the history", () => {
    type Edit = (data: Record<string, unknown>) => Record<string, unknown>;
    const turnRecord = (record: Edit) => journalChain(new AgentRunHistory().turns(2).turn({ record }));

    it("fails a turn.completed that misstates its request's size, the answer's tool calls or usage, or the execution's requests", () => {
      const sent = (data: Record<string, unknown>) => data.request_bytes as number;
      expect(turnRecord((data) => ({ ...data, request_bytes: sent(data) - 1 })).evidence[0]).toMatch(
        /^journal seq 4: turn\.completed of turn 3 says request_bytes (\d+); its call_model request \(event \d+\) is \d+ bytes$/,
      );
      expect(turnRecord((data) => ({ ...data, tool_calls: 0 })).evidence[0]).toBe(
        'journal seq 4: turn.completed of turn 3 says tool_calls 0; the answer makes 1',
      );
      expect(turnRecord((data) => ({ ...data, usage: {} })).evidence[0]).toBe(
        'journal seq 4: turn.completed of turn 3 says usage {}; the answer\'s usage is {"completion_tokens":1,"prompt_tokens":30,"total_tokens":31}',
      );
      expect(turnRecord((data) => ({ ...data, execution_request_bytes: sent(data) })).evidence[0]).toMatch(
        /^journal seq 4: turn\.completed of turn 3 says execution_request_bytes \d+; the execution's requests through it are \d+ bytes$/,
      );
      // A kernel that journals only the turn (the contract's minimum) is not judged on what it leaves out.
      expect(turnRecord(({ turn }) => ({ turn })).status).toBe('pass');
    });

    it("fails a run.continued_as_new that misstates its execution's requests", () => {
      const run = new AgentRunHistory().turns(2).continueAsNew({ record: (data) => ({ ...data, execution_request_bytes: 0 }) });
      expect(journalChain(run.turn()).evidence[0]).toMatch(
        /^journal seq 4: run\.continued_as_new says execution_request_bytes 0, its execution's requests are \d+ bytes$/,
      );
    });

    it('fails a compaction record whose sizes are not the request at the boundary and the request rebuilt', () => {
      const compacted = (record: Edit) =>
        journalChain(
          new AgentRunHistory({ limits: SMALL_LIMITS })
            .turns(3, { tools: [3000] })
            .compact({ record })
            .turn(),
        );
      // #119 of agent-run.ts: bytes_after measured on a request with no messages.
      expect(compacted((data) => ({ ...data, bytes_after: 102 })).evidence[0]).toMatch(
        /^journal seq 5: context\.compacted of turn 4 says bytes_after 102; the turn's call_model request is \d+ bytes$/,
      );
      expect(compacted((data) => ({ ...data, bytes_before: (data.bytes_before as number) + 1 })).evidence[0]).toMatch(
        /^journal seq 5: context\.compacted of turn 4 says bytes_before \d+; the request at the boundary is \d+ bytes$/,
      );
      expect(compacted((data) => data).status).toBe('pass');
    });

    it('fails payload elisions of a request that do not follow one another to the request sent', () => {
      const run = new AgentRunHistory().turn();
      const boundary = Buffer.byteLength(JSON.stringify(run.request()));
      const elided = (bytes_before: number, bytes_after: number) =>
        run.journal('payload.elided', { turn: 2, payload: 'request', bytes_before, bytes_after }, { turn: 2 });
      elided(boundary, boundary - 100);
      elided(boundary - 90, boundary - 200);
      run.turn();
      expect(journalChain(run).evidence.slice(0, 2)).toEqual([
        `journal seq 4: payload.elided (request) of turn 2 says bytes_before ${boundary - 90}; seq 3 left the request at ${boundary - 100}`,
        `journal seq 4: payload.elided (request) of turn 2 says bytes_after ${boundary - 200}; the turn's call_model request is ${boundary} bytes`,
      ]);
    });

    describe('what a request elision counts', () => {
      const shot = { type: 'image_url' as const, image_url: { url: `data:image/png;base64,${'A'.repeat(4000)}` } };
      /** Turn 1 returns a screenshot and a text; turn 2's request elides both, journaled with `counts`. */
      const elided = (counts: Record<string, unknown>) => {
        const run = new AgentRunHistory().turn({ tools: [[{ type: 'text', text: 'screen 1' }, shot], 3000] });
        const elide = (dialog: Message[]): Message[] =>
          dialog.map((m) =>
            m.role !== 'tool'
              ? m
              : {
                  ...m,
                  content:
                    typeof m.content === 'string'
                      ? '[elided: tool output, 3,000 bytes]'
                      : [
                          { type: 'text', text: 'screen 1' },
                          { type: 'text', text: '[elided: screenshot]' },
                        ],
                },
          );
        const bytes = (dialog: Message[]) => Buffer.byteLength(JSON.stringify(run.request(dialog)));
        run.journal(
          'payload.elided',
          { turn: 2, payload: 'request', bytes_before: bytes(run.dialog), bytes_after: bytes(elide(run.dialog)), ...counts },
          { turn: 2 },
        );
        return journalChain(run.turn({ messages: elide }));
      };

      it('passes counts that are what the request sent lost', () => {
        expect(elided({ items: 2, screenshots: 1, tool_outputs: 1, elided_bytes: 7000 }).status).toBe('pass');
      });

      it('fails screenshots the request did not lose, tool outputs fewer than the texts it lost, and counts that do not add up', () => {
        expect(elided({ items: 2, screenshots: 0, tool_outputs: 1 }).evidence[0]).toBe(
          'journal seq 3: payload.elided (request) of turn 2 counts 0 screenshots; the request sent has 1 fewer than the dialog at the boundary',
        );
        expect(elided({ items: 2, screenshots: 1, tool_outputs: 0 }).evidence[0]).toBe(
          'journal seq 3: payload.elided (request) of turn 2 counts 0 tool outputs; 1 tool messages of the request sent changed with their screenshots kept',
        );
        expect(elided({ items: 1, screenshots: 1, tool_outputs: 1 }).evidence[0]).toBe(
          'journal seq 3: payload.elided of turn 2 counts 1 screenshots and 1 tool outputs among 1 items',
        );
        expect(elided({ items: 2, screenshots: 1, tool_outputs: 1, elided_bytes: -7000 }).evidence[0]).toBe(
          'journal seq 3: payload.elided of turn 2 counts elided_bytes -7000, not a whole number',
        );
      });
    });
  });
});
