import { describe, expect, it } from 'vitest';
import { COMMANDS } from './commands.ts';

describe('the command registry', () => {
  it('names in each usage line only flags the command declares, and helps with every flag it declares', () => {
    for (const [name, command] of Object.entries(COMMANDS)) {
      const declared = 'flags' in command ? Object.keys(command.flags as object) : [];
      for (const used of command.usage.match(/--[a-z-]+/g) ?? []) expect(declared, `${name}: ${used}`).toContain(used.slice(2));
      for (const flag of declared) expect(command.help, `${name}: --${flag}`).toMatch(new RegExp(`^  --${flag}\\b`, 'm'));
    }
  });
});
