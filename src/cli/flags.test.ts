import { describe, expect, it } from 'vitest';
import { booleanFlag, defineCommand, flagsHelp, parseFlags, valueFlag, wholeNumber } from './flags.ts';
import { UsageError } from './usage-error.ts';

const FLAGS = {
  json: booleanFlag('print JSON'),
  dir: valueFlag({ value: 'DIR', help: 'where to write', default: 'reports' }),
  port: valueFlag({
    value: 'N',
    help: 'port',
    parse: wholeNumber(0, 65535),
    want: 'a port number',
    default: 0,
    shownDefault: 'a free one',
  }),
  limit: valueFlag({ value: 'N', help: 'a limit', parse: wholeNumber(1), want: 'a positive whole number' }),
  queue: valueFlag({ value: 'Q', help: 'the task queue', required: true }),
};
const ONE = { min: 1, max: 1, names: 'the scenario' };

function usageError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a UsageError');
}

describe('parseFlags', () => {
  it('gives every flag its value: given, parsed, default, or false for an absent boolean', () => {
    expect(parseFlags(['s', '--queue', 'q'], FLAGS, ONE)).toEqual({
      values: { json: false, dir: 'reports', port: 0, limit: undefined, queue: 'q' },
      positionals: ['s'],
    });
    expect(parseFlags(['--json', '--dir=out', 's', '--port', '8080', '--limit', '3', '--queue', 'q'], FLAGS, ONE).values).toEqual({
      json: true,
      dir: 'out',
      port: 8080,
      limit: 3,
      queue: 'q',
    });
  });

  it('refuses a flag the command does not declare, naming what it takes and the nearest one', () => {
    expect(usageError(() => parseFlags(['s', '--duration', '1m', '--queue', 'q'], FLAGS, ONE))).toBe(
      'unknown option --duration: this command takes --json, --dir, --port, --limit, --queue',
    );
    expect(usageError(() => parseFlags(['s', '--jsn'], FLAGS, ONE))).toBe(
      'unknown option --jsn (did you mean --json?): this command takes --json, --dir, --port, --limit, --queue',
    );
    expect(usageError(() => parseFlags(['-x'], {}, { min: 0, max: 0, names: '' }))).toBe(
      'unknown option -x: this command takes no options',
    );
  });

  it('names the flag, the value and what it wants when a validator refuses it', () => {
    expect(usageError(() => parseFlags(['s', '--queue', 'q', '--port', '70000'], FLAGS, ONE))).toBe('--port 70000: want a port number');
    expect(usageError(() => parseFlags(['s', '--queue', 'q', '--limit', '0'], FLAGS, ONE))).toBe('--limit 0: want a positive whole number');
    expect(usageError(() => parseFlags(['s', '--queue', 'q', '--limit', '1e3'], FLAGS, ONE))).toBe(
      '--limit 1e3: want a positive whole number',
    );
  });

  it('refuses a missing required flag, a value for a boolean, a missing value, and the wrong number of positionals', () => {
    expect(usageError(() => parseFlags(['s'], FLAGS, ONE))).toBe('--queue is required (the task queue)');
    expect(usageError(() => parseFlags(['s', '--queue', 'q', '--json=yes'], FLAGS, ONE))).toBe("Option '--json' does not take an argument");
    expect(usageError(() => parseFlags(['s', '--queue'], FLAGS, ONE))).toBe("Option '--queue <value>' argument missing");
    expect(usageError(() => parseFlags(['s', '--queue', '--json'], FLAGS, ONE))).toBe(
      '--queue wants a value: one that starts with a dash is written --queue=-...',
    );
    expect(usageError(() => parseFlags(['--queue', 'q'], FLAGS, ONE))).toBe('missing the scenario');
    expect(usageError(() => parseFlags(['a', 'b', '--queue', 'q'], FLAGS, ONE))).toBe('unexpected argument "b"');
  });
});

describe('flagsHelp', () => {
  it('writes a line per flag from the table, with its default or that it is required', () => {
    expect(flagsHelp(FLAGS)).toBe(
      [
        'Options:',
        '  --json      print JSON',
        '  --dir DIR   where to write (default: reports)',
        '  --port N    port (default: a free one)',
        '  --limit N   a limit',
        '  --queue Q   the task queue (required)',
      ].join('\n'),
    );
    expect(flagsHelp({})).toBe('');
  });
});

describe('defineCommand', () => {
  it('derives help from the table and parses before it runs', async () => {
    const seen: unknown[] = [];
    const command = defineCommand({
      usage: 'demo <x>',
      summary: 'a demo',
      flags: { json: booleanFlag('print JSON') },
      positionals: { min: 1, max: 1, names: 'x' },
      notes: 'More words.',
      async run(parsed) {
        seen.push(parsed);
        return 0;
      },
    });
    expect(command.help).toBe('Options:\n  --json   print JSON\n\nMore words.');
    await expect(command.run(['a', '--json'])).resolves.toBe(0);
    expect(seen).toEqual([{ values: { json: true }, positionals: ['a'] }]);
    await expect(command.run(['a', '--nope'])).rejects.toThrow(UsageError);
    expect(seen).toHaveLength(1);
  });
});
