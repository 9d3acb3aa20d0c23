import { describe, expect, it } from 'vitest';
import { extractIdentifiers } from './identifiers.ts';

describe('identifiers a card must keep', () => {
  it('finds paths, hashes, ids, UUIDs and long numbers, once each, in order', () => {
    const text = [
      'Fixed services/api/main.go and ./scripts/run.sh (see /var/log/app.log, docs/guide/intro).',
      'Commit 9f3c2ab1 and DEADBEEF42; build run-123 for call_4_2, ticket OPS-4821.',
      'Run 3f2504e0-4f89-11d3-9a0c-0305e82c3301 took 12345 ms over 1.2 seconds, 2026 lines; 9f3c2ab1 again.',
    ].join('\n');
    expect(extractIdentifiers(text)).toEqual([
      'services/api/main.go',
      './scripts/run.sh',
      '/var/log/app.log',
      'docs/guide/intro',
      '9f3c2ab1',
      'DEADBEEF42',
      'run-123',
      'call_4_2',
      'OPS-4821',
      '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
      '12345',
      '2026',
    ]);
  });

  it('leaves plain words, short numbers, all-letter or all-digit hex and lone slashes out', () => {
    expect(extractIdentifiers('the facade and/or a decade: 42 items, 123 ms, cafebabe, 1234567 is a number')).toEqual(['1234567']);
  });

  it('takes each match inside a longer one as part of it', () => {
    expect(extractIdentifiers('open src/run-42/main.ts now')).toEqual(['src/run-42/main.ts']);
  });
});
