import { describe, expect, it } from 'vitest';
import type { Resume } from '../../contract/kernel-api.ts';
import { checkRun } from '../index.ts';
import { AgentRunHistory, resultOf, SMALL_LIMITS } from '../testing/index.ts';

function carried(edit: (resume: Resume) => Resume): AgentRunHistory {
  return new AgentRunHistory()
    .turns(3, { tools: [1500, 800] })
    .continueAsNew({ resume: edit })
    .turn()
    .complete();
}

/**
 * A ContinueAsNew whose input had its tool outputs elided, the elision journaled under
 * `journalTurn(next)`, where `next` is the turn the carried dialog is for.
 */
function elidedCarry(journalTurn: (next: number) => number): AgentRunHistory {
  const run = new AgentRunHistory().turns(3, { tools: [1500, 800] });
  const turn = journalTurn(run.turnNumber + 1);
  run.journal('payload.elided', { turn, payload: 'continue_as_new', items: 2, tool_outputs: 2 }, { turn });
  return run
    .continueAsNew({
      resume: (r) => ({
        ...r,
        messages: r.messages.map((m) =>
          m.role === 'tool' && typeof m.content === 'string'
            ? { ...m, content: `[elided: tool output, ${Buffer.byteLength(m.content)} bytes]` }
            : m,
        ),
      }),
    })
    .turn()
    .complete();
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
    const result = resultOf(
      carried((r) => ({
        ...r,
        messages: r.messages.map((m, i) => (i === r.messages.length - 1 ? { ...m, content: 'changed' } : m)),
      })),
      'can.carry-over',
    );
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
});
