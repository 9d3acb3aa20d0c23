/** A command longrun runs for a foreign worker: the worker itself, its build, its replayer. */
import { execFile } from 'node:child_process';

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

/** Lines a runtime prints after the cause of a crash: Node's version trailer and stack frames, go run's exit status. */
const AFTER_THE_CAUSE = [/^Node\.js v\d/, /^\s+at /, /^exit status \d+$/];

/**
 * The line of a command's output that says what went wrong, or '': Go's `panic: ...` (a
 * goroutine dump follows it), else the last line that is not a runtime's trailer (Node ends an
 * uncaught error with its stack and `Node.js v20...`; Python's traceback ends with its cause).
 */
export function lastMeaningfulLine(text: string): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const panic = lines.find((line) => line.startsWith('panic: '));
  if (panic) return panic.trim();
  const said = lines.filter((line) => !AFTER_THE_CAUSE.some((trailer) => trailer.test(line)));
  return (said.at(-1) ?? lines.at(-1) ?? '').trim();
}

export interface CommandOutcome {
  /** Its exit code; null when it did not get to exit by itself (`failure` says why). */
  code: number | null;
  stderr: string;
  /** Why it did not run to an exit of its own: "could not start: ENOENT", "stopped after 120 s". */
  failure?: string;
}

/** Runs a foreign command to its end (its build, its replayer) with `extraArgs` appended. */
export function runForeignCommand(command: ForeignCommand, extraArgs: readonly string[], timeoutMs: number): Promise<CommandOutcome> {
  const [program, ...args] = command.argv;
  return new Promise((resolve) => {
    execFile(
      program as string,
      [...args, ...extraArgs],
      { cwd: command.cwd, env: { ...process.env, ...command.env }, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        if (!error) return resolve({ code: 0, stderr });
        const { code, killed, signal } = error as NodeJS.ErrnoException & { killed?: boolean; signal?: string };
        if (typeof code === 'string') return resolve({ code: null, stderr, failure: `could not start: ${code}` });
        if (killed || signal)
          return resolve({ code: null, stderr, failure: `stopped after ${timeoutMs / 1000} s (${signal ?? 'killed'})` });
        resolve({ code: typeof code === 'number' ? code : 1, stderr });
      },
    );
  });
}
