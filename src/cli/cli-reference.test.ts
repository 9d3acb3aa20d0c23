import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLI_REFERENCE_FILE, cliReferenceText } from './cli-reference.ts';
import { COMMANDS } from './commands.ts';

describe('docs/reference/cli.md', () => {
  it("is what the commands' own flag definitions give (run `npm run schema` when this fails)", async () => {
    expect(readFileSync(CLI_REFERENCE_FILE, 'utf8')).toBe(await cliReferenceText());
  }, 60_000);

  it('holds every command, and every flag each one parses with its help', async () => {
    const text = await cliReferenceText();
    for (const [name, entry] of Object.entries(COMMANDS)) {
      expect(text).toContain(`longrun ${entry.usage}`);
      const command = (await entry.load()) as { flags?: Record<string, { help: string }> };
      for (const [flag, { help }] of Object.entries(command.flags ?? {})) {
        expect(text, `${name} --${flag}`).toContain(`\`--${flag}`);
        expect(text, `${name} --${flag}`).toContain(help.replace(/\|/g, '\\|'));
      }
    }
    expect(text).toContain('| `--duration D` | **required** | how long to keep starting runs: 90s, 10m, 1h |');
    expect(text).toContain('### `longrun scenario new`');
  }, 60_000);
});
