/** node:util parseArgs with longrun's one-line usage errors. */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from './usage-error.ts';

export function parseCommandArgs<T extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: T,
  positionals: { min: number; max: number; names: string },
) {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0] ?? 'bad arguments');
  }
  if (parsed.positionals.length < positionals.min) throw new UsageError(`missing ${positionals.names}`);
  if (parsed.positionals.length > positionals.max) throw new UsageError(`unexpected argument "${parsed.positionals[positionals.max]}"`);
  return parsed;
}
