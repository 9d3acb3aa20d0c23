/** A command longrun runs for a foreign worker: the worker itself, its build, its replayer. */
export interface ForeignCommand {
  /** The program and its arguments (no shell). */
  argv: readonly string[];
  /** The working directory (absolute; a scenario's are resolved against its file's folder). */
  cwd?: string;
  /** Added to longrun's own environment. */
  env?: Readonly<Record<string, string>>;
}

/** "`go-kernel worker --binary v1` in examples/go-kernel": how messages name a command. */
export function describeCommand(command: ForeignCommand): string {
  return `\`${command.argv.join(' ')}\`${command.cwd ? ` in ${command.cwd}` : ''}`;
}
