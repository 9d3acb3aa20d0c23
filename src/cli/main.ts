/**
 * The `longrun` command. Each command lives in its own module, loaded only when it is used; this
 * file routes, prints usage and turns every error into one line (a line per problem of a
 * scenario file) and exit code 2: a command reports a regression by returning 1, never by
 * throwing (exit-code.ts).
 */
import { ScenarioError } from '../scenario/scenario-error.ts';
import { InterruptedError } from '../shared/interrupted.ts';
import { terminalText } from '../shared/visible-text.ts';
import { stopQuietlyWhenClosed } from './closed-pipe.ts';
import { COMMANDS, type CommandEntry } from './commands.ts';
import { EXIT } from './exit-code.ts';

/** How long a returned command may take to let go of its last handles before longrun exits anyway. */
const EXIT_GRACE_MS = 3_000;
/** Set once the command has returned, its exit code decided. */
let returned = false;

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
    return name ? EXIT.passed : EXIT.harness;
  }
  const command: CommandEntry | undefined = COMMANDS[name];
  if (!command) {
    console.error(`longrun: unknown command "${name}" (commands: ${Object.keys(COMMANDS).join(', ')})`);
    return EXIT.harness;
  }
  try {
    const loaded = await command.load();
    if (rest.includes('--help') || rest.includes('-h')) {
      console.log(`Usage: longrun ${command.usage}\n\n${command.summary}\n\n${loaded.help}`);
      return EXIT.passed;
    }
    return await loaded.run(rest);
  } catch (error) {
    const lines = error instanceof ScenarioError ? error.lines : [firstLine(error)];
    // A message may quote a file's name or content: its controls are shown, never acted on.
    for (const line of lines) console.error(`longrun ${name}: ${terminalText(line)}`);
    if (process.env.LONGRUN_DEBUG && error instanceof Error) console.error(error.stack);
    return error instanceof InterruptedError ? EXIT.interrupted : EXIT.harness;
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

// The last resort: an error no command expected (a library's timer throwing after teardown)
// still ends in one line, not a stack trace alone.
function internalError(error: unknown): void {
  // Once the command has returned, its verdict is said: a client's retry timer firing on a
  // connection closed under it (the server gone) is no news, and must not add a second line.
  if (returned) {
    if (process.env.LONGRUN_DEBUG && error instanceof Error) console.error(error.stack);
    process.exit();
  }
  console.error(`longrun: internal error: ${terminalText(firstLine(error))} (LONGRUN_DEBUG=1 prints the stack)`);
  if (process.env.LONGRUN_DEBUG && error instanceof Error) console.error(error.stack);
  process.exit(EXIT.harness);
}
process.on('uncaughtException', internalError);
stopQuietlyWhenClosed(process.stdout);
// A closed stderr must not end a run before its report is written (stop-on-signals.ts stops it
// the proper way); what longrun would have said there has nobody to read it.
process.stderr.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') internalError(error);
});
process.on('unhandledRejection', internalError);

process.exitCode = await main(process.argv.slice(2));
returned = true;
// A command that returned is done. What still holds the process open then is a leak, not work:
// after Worker.create fails its namespace check on a server that died, the SDK's native side
// holds the process open past every teardown, and longrun printed its line and never exited.
// Unref'd: a clean end is at once.
setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
