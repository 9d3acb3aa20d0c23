import { describe, expect, it } from 'vitest';
import { pageEvents } from './history-chain.ts';

describe('pageEvents', () => {
  it('fetches a small run in pages of up to 1,000 events', () => {
    // A p50 run: ~3 MB over ~770 events, ~4 kB an event.
    expect(pageEvents(3_100_000, 770)).toBe(1_000);
  });

  it('keeps a page of large events near 4 MiB', () => {
    // A max-size run's first execution: 139 MB over ~3,000 events, ~46 kB an event.
    const events = pageEvents(139_000_000, 3_000);
    expect(events).toBe(Math.floor((4 * 1024 * 1024) / (139_000_000 / 3_000)));
    expect(events).toBeGreaterThan(32);
    expect(events).toBeLessThan(100);
  });

  it('never goes under 32 events a page, even for events near the blob limit', () => {
    expect(pageEvents(2_000_000 * 40, 40)).toBe(32);
  });

  it('falls back to 32 when the server reports no size', () => {
    expect(pageEvents(0, 0)).toBe(32);
    expect(pageEvents(5_000, 0)).toBe(32);
  });
});
