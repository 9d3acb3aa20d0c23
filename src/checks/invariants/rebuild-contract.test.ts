import { describe, expect, it } from 'vitest';
import type { Message } from '../../contract/messages.ts';
import { AgentRun, CARD_FRAME, resultOf, SMALL_LIMITS } from '../testing/index.ts';

function overTrigger(): AgentRun {
  const run = new AgentRun({ limits: SMALL_LIMITS });
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
  it('passes rebuilds of 2 to 8 whole groups and append-only turns between them', () => {
    const run = new AgentRun({ limits: SMALL_LIMITS }).play(12);
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
    const run = new AgentRun({ limits: { ...SMALL_LIMITS, tailMaxBytes: 4_000 } });
    while (Buffer.byteLength(JSON.stringify(run.request())) <= run.limits.compactionTriggerBytes) run.turn();
    run.compact({ tailGroups: 3 }).turn();
    expect(resultOf(run, 'rebuild.contract').evidence[0]).toMatch(/the tail is [\d,]+ bytes > tail max 4,000$/);
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
    const run = new AgentRun().turns(3).turn({ messages: (dialog) => [dialog[0] as Message, dialog[1] as Message, ...dialog.slice(4)] });
    expect(resultOf(run, 'rebuild.contract').evidence[0]).toMatch(
      /^event \d+ \(turn 4\): the request is neither the dialog as it stood nor a rebuild after an accepted compaction: message 2 is assistant calling call_2_0 where the dialog has assistant calling call_1_0$/,
    );
  });

  it('fails any request that breaks tool contiguity', () => {
    const run = new AgentRun().turns(2, { tools: [100, 100] });
    run.turn({ messages: (dialog) => [...dialog.slice(0, -2), dialog.at(-1) as Message] });
    expect(resultOf(run, 'rebuild.contract').evidence[0]).toMatch(
      /^event \d+ \(turn 3\): message 5 \(assistant\): tool call call_2_0 has no tool result after it$/,
    );
  });

  it('is not applicable without a rebuild, once every request kept the contract', () => {
    expect(resultOf(new AgentRun().turns(3).complete(), 'rebuild.contract')).toMatchObject({
      status: 'not-applicable',
      evidence: ['4 requests checked for tool contiguity; 0 rebuilds'],
    });
  });
});
