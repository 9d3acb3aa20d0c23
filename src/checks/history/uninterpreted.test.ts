import { describe, expect, it } from 'vitest';
import { DEFAULT_KERNEL_MAPPING } from '../mapping.ts';
import type { LoadedHistory, UninterpretedEvent } from './model.ts';
import { uninterpretedNotes } from './uninterpreted.ts';

const execution = (uninterpreted?: UninterpretedEvent[]): LoadedHistory => ({
  source: 'x',
  mapping: DEFAULT_KERNEL_MAPPING,
  events: [],
  ...(uninterpreted ? { uninterpreted } : {}),
});
const ignorable = (id: number, type = 'Unknown') => ({ id, type, workerMayIgnore: true });
const unknown = (id: number, type = 'UnknownEvent') => ({ id, type, workerMayIgnore: false });

describe('the notes of what the checks did not read', () => {
  it('are none when every event was read', () => {
    expect(uninterpretedNotes([execution(), execution([])])).toEqual([]);
  });

  it('say which events were skipped as ignorable and which types were not known, by execution', () => {
    const notes = uninterpretedNotes([
      execution([unknown(7), ignorable(9)]),
      execution([ignorable(3), ignorable(4, 'EventType 99'), ignorable(12)]),
    ]);
    expect(notes).toEqual([
      'skipped 4 events marked workerMayIgnore, as a worker does: Unknown (execution 1: event 9; execution 2: events 3, 12), EventType 99 (execution 2: event 4)',
      'judged around 1 event of a type the checks do not know (not read): UnknownEvent (execution 1: event 7)',
    ]);
  });

  it('name a few ids of each place, not all of them', () => {
    const many = Array.from({ length: 8 }, (_, i) => ignorable(10 + i));
    expect(uninterpretedNotes([execution(many)])).toEqual([
      'skipped 8 events marked workerMayIgnore, as a worker does: Unknown (execution 1: events 10, 11, 12, 13, 14 and 3 more)',
    ]);
  });

  it('name every id when there are no more than shown', () => {
    const five = Array.from({ length: 5 }, (_, i) => unknown(20 + i));
    expect(uninterpretedNotes([execution(five)])).toEqual([
      'judged around 5 events of a type the checks do not know (not read): UnknownEvent (execution 1: events 20, 21, 22, 23, 24)',
    ]);
  });
});
