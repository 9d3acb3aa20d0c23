/**
 * The turn counter read from the journal: `turn.completed` events name turns 1..N in order,
 * each once (no turn lost, none done twice, across crashes, restarts and ContinueAsNew), and
 * `run.completed` counts N turns, N within the run's maxTurns and equal to it when the run says it
 * ended there (a turn loop that stops early or runs one turn over). journal.chain proves the events form one chain; this proves
 * the chain tells one story of turns. Its findings are journal.chain's.
 */
import type { RunView } from './run-view.ts';

export function turnContinuityFailures(view: RunView): { failures: string[]; turns: number } {
  const failures: string[] = [];
  let expected = 1;
  for (const { event } of view.journal) {
    if (event.type === 'turn.completed') {
      const turn = event.data.turn;
      if (turn !== event.turn)
        failures.push(`journal seq ${event.seq}: turn.completed data.turn ${turn} is not the event's turn ${event.turn}`);
      if (event.turn < expected)
        failures.push(`journal seq ${event.seq}: turn ${event.turn} completed again (turn ${expected - 1} was the last)`);
      else if (event.turn > expected) {
        const missing = event.turn - 1 === expected ? `turn ${expected}` : `turns ${expected}-${event.turn - 1}`;
        failures.push(`journal seq ${event.seq}: turn ${event.turn} completed, but ${missing} never did`);
      }
      expected = Math.max(expected, event.turn + 1);
    }
    if (event.type === 'run.completed') {
      const counted = (event.data.counters as { turns?: unknown } | undefined)?.turns;
      if (typeof counted === 'number' && counted !== expected - 1)
        failures.push(`journal seq ${event.seq}: run.completed counts ${counted} turns, the journal completed ${expected - 1}`);
      failures.push(...maxTurnsFailures(event.seq, event.data.ended, expected - 1, view.input.maxTurns));
    }
  }
  return { failures, turns: expected - 1 };
}

/** maxTurns 0: the history does not say (an external target's input). */
function maxTurnsFailures(seq: number, ended: unknown, turns: number, maxTurns: number): string[] {
  if (maxTurns <= 0) return [];
  if (turns > maxTurns) return [`journal seq ${seq}: the run completed ${turns} turns, over its maxTurns ${maxTurns}`];
  if (ended === 'max-turns' && turns !== maxTurns) {
    return [`journal seq ${seq}: run.completed says it ended at max-turns after ${turns} turns, not maxTurns ${maxTurns}`];
  }
  return [];
}
