import type { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { pollEvents } from './history-stream.ts';

const started = (eventId: number, historySizeBytes: number): temporal.api.history.v1.IHistoryEvent =>
  ({ eventId, workflowTaskStartedEventAttributes: { historySizeBytes } }) as never;
const other = (eventId: number): temporal.api.history.v1.IHistoryEvent => ({ eventId }) as never;

describe('pollEvents', () => {
  it("asks for fewer events once the history's events are large (a max-size run: ~93 kB each)", () => {
    expect(pollEvents([started(1490, 139e6), other(1491)], 256)).toBe(44);
    expect(pollEvents([started(2000, 10e9)], 256)).toBe(32); // never fewer than a small page's floor
  });

  it('asks for the most while events are small, and keeps its size where the page counted nothing', () => {
    expect(pollEvents([started(10, 5_000)], 45)).toBe(256);
    expect(pollEvents([other(11), started(12, 0)], 45)).toBe(45);
  });
});
