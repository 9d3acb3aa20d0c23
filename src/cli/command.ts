/** What every `longrun` subcommand module exports: its usage line, its help, and how it runs. */
export interface Command {
  usage: string;
  summary: string;
  help: string;
  /** Returns the exit code. */
  run(args: string[]): Promise<number>;
}
