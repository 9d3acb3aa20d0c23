import { describe, expect, it } from 'vitest';
import { mutantsCommand } from './mutants.ts';

describe('mutants parses its flags', () => {
  it('takes --json and nothing else', () => {
    expect(mutantsCommand.parse([])).toEqual({ values: { json: false }, positionals: [] });
    expect(mutantsCommand.parse(['--json']).values).toEqual({ json: true });
    expect(() => mutantsCommand.parse(['--duration', '1m'])).toThrow('unknown option --duration: this command takes --json');
    expect(() => mutantsCommand.parse(['v0'])).toThrow('unexpected argument "v0"');
  });
});
