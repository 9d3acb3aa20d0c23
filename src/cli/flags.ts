/**
 * A command's flags, declared once: each flag's type, validator, help line and default. Parsing
 * (node:util parseArgs, strict: a flag the command does not declare is refused) and the
 * Options section of `--help` are both derived from that one table.
 */
import { parseArgs } from 'node:util';
import { closestName } from '../scenario/closest-name.ts';
import type { Command } from './command.ts';
import { UsageError } from './usage-error.ts';

interface FlagHelp {
  help: string;
}

export interface BooleanFlag extends FlagHelp {
  kind: 'boolean';
}

/** `Always` is true when the flag always has a value (a default, or it is required). */
export interface ValueFlag<T, Always extends boolean = boolean> extends FlagHelp {
  kind: 'value';
  /** The value's placeholder in help: `N`, `DIR`. */
  value: string;
  /** The parsed value, or undefined when `raw` is not what `want` says. */
  parse: (raw: string) => T | undefined;
  /** What a good value looks like, for the error: "--port x: want a port number". */
  want: string;
  default?: T;
  /** The default as help shows it, when not its plain value ("a free one, printed"). */
  shownDefault?: string;
  required?: boolean;
  /** Only in the type: whether the parsed value can be missing. */
  readonly always?: Always;
}

export type Flag = BooleanFlag | ValueFlag<unknown>;
export type FlagTable = Record<string, Flag>;

type FlagValue<F> = F extends BooleanFlag
  ? boolean
  : F extends ValueFlag<infer T, infer Always>
    ? Always extends true
      ? T
      : T | undefined
    : never;
export type FlagValues<F extends FlagTable> = { -readonly [K in keyof F]: FlagValue<F[K]> };

export function booleanFlag(help: string): BooleanFlag {
  return { kind: 'boolean', help };
}

interface ValueFlagSpec<T> {
  value: string;
  help: string;
  /** Default: the string as given. */
  parse?: (raw: string) => T | undefined;
  want?: string;
}

/** A flag taking a value; with a default or `required: true` its parsed value is never missing. */
export function valueFlag<T = string>(spec: ValueFlagSpec<T> & { default: T; shownDefault?: string }): ValueFlag<NoInfer<T>, true>;
export function valueFlag<T = string>(spec: ValueFlagSpec<T> & { required: true }): ValueFlag<NoInfer<T>, true>;
export function valueFlag<T = string>(spec: ValueFlagSpec<T>): ValueFlag<NoInfer<T>, false>;
export function valueFlag<T>(spec: ValueFlagSpec<T> & { default?: T; shownDefault?: string; required?: boolean }): ValueFlag<T, boolean> {
  return { kind: 'value', parse: (raw) => raw as T, want: 'a value', ...spec };
}

/** A validator for a whole number from `min` to `max`, written in decimal digits only. */
export function wholeNumber(min: number, max: number = Number.MAX_SAFE_INTEGER): (raw: string) => number | undefined {
  return (raw) => (/^\d+$/.test(raw) && Number(raw) >= min && Number(raw) <= max ? Number(raw) : undefined);
}

export interface Positionals {
  min: number;
  max: number;
  /** What they are, for "missing ...": "the scenario", "history files". */
  names: string;
}

export interface ParsedArgs<F extends FlagTable> {
  values: FlagValues<F>;
  positionals: string[];
}

export function parseFlags<F extends FlagTable>(args: string[], flags: F, positionals: Positionals): ParsedArgs<F> {
  const options = Object.fromEntries(
    Object.entries(flags).map(([name, flag]) => [name, { type: flag.kind === 'boolean' ? ('boolean' as const) : ('string' as const) }]),
  );
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(parseError(error as Error & { code?: string }, flags));
  }
  const values: Record<string, unknown> = {};
  for (const [name, flag] of Object.entries(flags)) {
    const raw = parsed.values[name];
    if (flag.kind === 'boolean') {
      values[name] = raw === true;
    } else if (typeof raw === 'string') {
      const value = flag.parse(raw);
      if (value === undefined) throw new UsageError(`--${name} ${raw}: want ${flag.want}`);
      values[name] = value;
    } else if (flag.required) {
      throw new UsageError(`--${name} is required (${flag.help})`);
    } else {
      values[name] = flag.default;
    }
  }
  if (parsed.positionals.length < positionals.min) throw new UsageError(`missing ${positionals.names}`);
  if (parsed.positionals.length > positionals.max) throw new UsageError(`unexpected argument "${parsed.positionals[positionals.max]}"`);
  return { values: values as FlagValues<F>, positionals: parsed.positionals };
}

/** parseArgs' messages run on with advice for another tool; ours name what the command takes. */
function parseError(error: Error & { code?: string }, flags: FlagTable): string {
  const names = Object.keys(flags);
  const taken = names.length > 0 ? `takes ${names.map((n) => `--${n}`).join(', ')}` : 'takes no options';
  const unknown = /^Unknown option '(-{1,2})([^']*)'/.exec(error.message);
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) {
    const guess = closestName(unknown[2] ?? '', names);
    return `unknown option ${unknown[1]}${unknown[2]}${guess ? ` (did you mean --${guess}?)` : ''}: this command ${taken}`;
  }
  const ambiguous = /^Option '--([^']*)' argument is ambiguous/.exec(error.message);
  if (ambiguous) return `--${ambiguous[1]} wants a value: one that starts with a dash is written --${ambiguous[1]}=-...`;
  return error.message.split('\n')[0] ?? 'bad arguments';
}

/** The Options section of `--help`, a line per flag. */
export function flagsHelp(flags: FlagTable): string {
  const rows = Object.entries(flags).map(([name, flag]) => {
    const left = flag.kind === 'boolean' ? `--${name}` : `--${name} ${flag.value}`;
    const shown =
      flag.kind === 'value' ? (flag.shownDefault ?? (flag.default === undefined ? undefined : String(flag.default))) : undefined;
    const suffix = flag.kind === 'value' && flag.required ? ' (required)' : shown === undefined ? '' : ` (default: ${shown})`;
    return { left, right: `${flag.help}${suffix}` };
  });
  if (rows.length === 0) return '';
  const width = Math.max(...rows.map((r) => r.left.length)) + 3;
  return `Options:\n${rows.map((r) => `  ${r.left.padEnd(width)}${r.right}`).join('\n')}`;
}

export interface CommandSpec<F extends FlagTable> {
  usage: string;
  summary: string;
  flags: F;
  positionals: Positionals;
  /** `--help` text after the options: subcommands, incidents, what the command needs. */
  notes?: string;
  run(parsed: ParsedArgs<F>): Promise<number>;
}

/** A command whose parsing can be tried alone (its unit tests), without running it. */
export interface DeclaredCommand<F extends FlagTable> extends Command {
  flags: F;
  parse(args: string[]): ParsedArgs<F>;
}

export function defineCommand<F extends FlagTable>(spec: CommandSpec<F>): DeclaredCommand<F> {
  const parse = (args: string[]) => parseFlags(args, spec.flags, spec.positionals);
  return {
    usage: spec.usage,
    summary: spec.summary,
    help: [flagsHelp(spec.flags), spec.notes].filter(Boolean).join('\n\n'),
    flags: spec.flags,
    parse,
    run: async (args) => spec.run(parse(args)),
  };
}
