/**
 * The `longrun` command. Each command lives in its own module; this file routes, prints usage
 * and turns every expected error into one line and a non-zero exit.
 */
import type { Command } from './command.ts';
import { COMMANDS } from './commands.ts';
import { UsageError } from './usage-error.ts';

const HELP = `longrun: load and chaos tests for Temporal agent workflows with context compaction

Usage: longrun <command> [options]

Commands:
${Object.values(COMMANDS)
  .map((c) => `  ${c.usage.padEnd(44)} ${c.summary}`)
  .join('\n')}

Run \`longrun <command> --help\` for a command's options.`;

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(HELP);
    return name ? 0 : 2;
  }
  const command: Command | undefined = COMMANDS[name];
  if (!command) {
    console.error(`longrun: unknown command "${name}" (commands: ${Object.keys(COMMANDS).join(', ')})`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(`Usage: longrun ${command.usage}\n\n${command.summary}\n\n${command.help}`);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`longrun ${name}: ${error.message}`);
      return 2;
    }
    const message = error instanceof Error ? error.message : String(error);
    console.error(`longrun ${name}: ${message.split('\n')[0]}`);
    if (process.env.LONGRUN_DEBUG && error instanceof Error) console.error(error.stack);
    return 1;
  }
}

// The last resort: an error no command expected (a library's timer throwing after teardown)
// still ends in one line, not a stack trace alone.
function internalError(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`longrun: internal error: ${message.split('\n')[0]} (LONGRUN_DEBUG=1 prints the stack)`);
  if (process.env.LONGRUN_DEBUG && error instanceof Error) console.error(error.stack);
  process.exit(1);
}
process.on('uncaughtException', internalError);
process.on('unhandledRejection', internalError);

process.exitCode = await main(process.argv.slice(2));
