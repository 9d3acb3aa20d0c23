import { describe, expect, it } from 'vitest';
import { CURRENT_BINARY } from '../../kernel/index.ts';
import { replayCommand } from './replay.ts';

describe('replay parses its flags', () => {
  it('takes history files and --binary (default the current binary)', () => {
    expect(replayCommand.parse(['a.json'])).toEqual({ values: { binary: CURRENT_BINARY }, positionals: ['a.json'] });
    expect(replayCommand.parse(['a.json', 'b.json', '--binary', 'v2'])).toEqual({
      values: { binary: 'v2' },
      positionals: ['a.json', 'b.json'],
    });
  });

  it('refuses an unknown binary, no files, and flags it does not use', () => {
    expect(() => replayCommand.parse(['a.json', '--binary', 'v9'])).toThrow(/^--binary v9: want one of v0, v1, v2, /);
    expect(() => replayCommand.parse([])).toThrow('missing history files');
    expect(() => replayCommand.parse(['a.json', '--json'])).toThrow('unknown option --json: this command takes --binary');
  });
});
