import { describe, expect, it } from 'vitest';
import { checkRun } from '../checks/index.ts';
import { buildRunView } from '../checks/run/run-view.ts';
import { AgentRun } from '../checks/testing/index.ts';
import { withTurnContinuity } from './turn-continuity.ts';

function journalChain(run: AgentRun) {
  const loaded = run.loaded();
  const result = withTurnContinuity(checkRun(loaded).results, buildRunView(loaded)).find((r) => r.id === 'journal.chain');
  if (!result) throw new Error('no journal.chain result');
  return result;
}

describe('the turn counter joined to journal.chain', () => {
  it('passes turns 1..N completed once each, across ContinueAsNew, and says so', () => {
    const run = new AgentRun().play(3).continueAsNew().play(2).complete();
    const result = journalChain(run);
    expect(result.status).toBe('pass');
    expect(result.evidence.at(-1)).toBe('turn.completed for turns 1-6, each once');
  });

  it('fails a turn completed twice', () => {
    const run = new AgentRun().play(2);
    run.journal('turn.completed', { turn: 2 }, { turn: 2 });
    const result = journalChain(run.turn());
    expect(result.status).toBe('fail');
    expect(result.evidence[0]).toBe('turn counter: journal seq 4: turn 2 completed again (turn 2 was the last)');
  });

  it('fails a turn that never completed', () => {
    const run = new AgentRun().play(2);
    run.journal('turn.completed', { turn: 5 }, { turn: 5 });
    const result = journalChain(run);
    expect(result.status).toBe('fail');
    expect(result.evidence[0]).toBe('turn counter: journal seq 4: turn 5 completed, but turns 3-4 never did');
  });

  it('fails a turn.completed whose data names another turn than the event', () => {
    const run = new AgentRun().play(1);
    run.journal('turn.completed', { turn: 3 }, { turn: 2 });
    expect(journalChain(run).evidence[0]).toBe("turn counter: journal seq 3: turn.completed data.turn 3 is not the event's turn 2");
  });

  it('fails a run.completed whose counters disagree with the journal', () => {
    const run = new AgentRun().play(2);
    run.journal('run.completed', { ended: 'done', counters: { turns: 3 } });
    expect(journalChain(run).evidence[0]).toBe('turn counter: journal seq 4: run.completed counts 3 turns, the journal completed 2');
  });
});
