import { describe, expect, it } from 'vitest';
import { COMMANDS } from './commands.ts';

describe('the command registry', () => {
  it('names in each usage line only flags the command declares, and helps with every flag it declares', async () => {
    for (const [name, entry] of Object.entries(COMMANDS)) {
      const command = await entry.load();
      const declared = 'flags' in command ? Object.keys(command.flags as object) : [];
      for (const used of entry.usage.match(/--[a-z-]+/g) ?? []) expect(declared, `${name}: ${used}`).toContain(used.slice(2));
      for (const flag of declared) expect(command.help, `${name}: --${flag}`).toMatch(new RegExp(`^  --${flag}\\b`, 'm'));
    }
  });

  it('lists each command with the usage line and summary its module declares', async () => {
    for (const [name, entry] of Object.entries(COMMANDS)) {
      const command = await entry.load();
      expect({ usage: command.usage, summary: command.summary }, name).toEqual({ usage: entry.usage, summary: entry.summary });
    }
  });
});
