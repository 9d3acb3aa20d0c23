import { describe, expect, it } from 'vitest';
import type { CompactionItem, Message } from '../../contract/messages.ts';
import { AgentRunHistory, resultOf } from '../testing/index.ts';

const item = (n: number): CompactionItem => ({ role: 'compaction', id: `cmp_${n}`, content: `lrc1.seal-${n}.mac` });

/**
 * A run of the provider-compaction binary: three turns, then the provider's compaction at turn
 * 3's answer; turn 4's request is what `leave` makes of the dialog (default: what the kernel
 * sends, the system prompt, the item, turn 3's answer and its tool result), then two more turns.
 */
function compactedRun(leave?: (dialog: Message[], answered: number) => Message[]): AgentRunHistory {
  let answered = 0;
  const run = new AgentRunHistory({ gate: false }).turn().turn();
  run.turn({
    messages: (dialog) => {
      answered = dialog.length;
      return dialog;
    },
  });
  const kept = (dialog: Message[], at: number) => [dialog[0] as Message, item(1), ...dialog.slice(at)];
  return run
    .turn({ messages: (dialog) => (leave ?? kept)(dialog, answered) })
    .turn()
    .turn({ final: true })
    .complete();
}

describe('rebuild.contract and compaction.trigger on provider-side compaction', () => {
  it('take the drop before a compaction item as intended, and say why the card does not apply', () => {
    const run = compactedRun();
    const rebuild = resultOf(run, 'rebuild.contract');
    expect(rebuild.status).toBe('not-applicable');
    expect(rebuild.evidence[0]).toMatch(
      /^no card to rebuild around: the provider compacted once \(compaction items in the requests\); \d+ turns held to the dialog as it stood, or as a compaction item left it \(what it stands for dropped\)$/,
    );
    const trigger = resultOf(run, 'compaction.trigger');
    expect(trigger.status).toBe('not-applicable');
    expect(trigger.evidence[0]).toBe('the provider compacts, not the kernel: 1 compaction item in the requests');
  });

  it('fail a request that drops the previous answer with what the item stands for', () => {
    const rebuild = resultOf(
      compactedRun((dialog, answered) => [dialog[0] as Message, item(1), ...dialog.slice(answered + 1)]),
      'rebuild.contract',
    );
    expect(rebuild.status).toBe('fail');
    expect(rebuild.evidence).toContainEqual(
      expect.stringMatching(
        /^event \d+ \(turn 4\): the request is not the dialog the provider's compaction left \(the system prompt, the compaction item, the previous answer and its tool results\): message 2 is tool call_3_0 where the dialog has assistant calling call_3_0$/,
      ),
    );
  });

  it('fail a request that keeps the system prompt out, or an item that stands for nothing dropped', () => {
    const withoutSystem = resultOf(
      compactedRun((dialog, answered) => [item(1), ...dialog.slice(answered)]),
      'rebuild.contract',
    );
    expect(withoutSystem.status).toBe('fail');
    expect(withoutSystem.evidence[0]).toMatch(
      /turn 4\): the request is not the dialog the provider's compaction left .*: message 0 is compaction where the dialog has system$/,
    );
    // An item appended while everything before it is still sent: the request grows as v0's does.
    const kept = resultOf(
      compactedRun((dialog) => [...dialog, item(1)]),
      'rebuild.contract',
    );
    expect(kept.status).toBe('fail');
  });

  it('fail a drop without a compaction item as before', () => {
    const rebuild = resultOf(
      compactedRun((dialog, answered) => [dialog[0] as Message, ...dialog.slice(answered)]),
      'rebuild.contract',
    );
    expect(rebuild.status).toBe('fail');
    expect(rebuild.evidence[0]).toMatch(/the request is neither the dialog as it stood nor a rebuild after an accepted compaction/);
  });
});
