/**
 * The supervisor of one foreign worker process (a worker longrun did not write: any language,
 * any SDK). It runs the worker's command in its own process group, forwards a SIGTERM to it, and
 * SIGKILLs the whole group when longrun goes away without a word (its IPC channel closes: a
 * crash or a SIGKILL of longrun), because a foreign program cannot be asked to watch its parent.
 *   node --import tsx src/chaos/foreign-supervisor.ts '<ForeignCommand as JSON>'
 */
import { spawn } from 'node:child_process';
import { describeCommand, type ForeignCommand } from './foreign-command.ts';

// Under the harness's own 15 s (foreign-worker.ts): a worker gets 14 s to finish its activities in flight.
const GRACE_MS = 14_000;
const command = JSON.parse(process.argv[2] ?? '{}') as ForeignCommand;
const [program, ...args] = command.argv;

const child = spawn(program as string, args, {
  cwd: command.cwd,
  env: { ...process.env, ...command.env },
  stdio: ['ignore', 'inherit', 'inherit'],
});

function killGroup(): void {
  // The supervisor leads the group (longrun spawns it detached): this ends the worker and any child it started.
  try {
    process.kill(-process.pid, 'SIGKILL');
  } catch {
    process.exit(137);
  }
}

// The harness samples the worker's own memory and CPU, not the supervisor's.
if (child.pid !== undefined) process.send?.({ type: 'started', pid: child.pid });

child.on('error', (error: NodeJS.ErrnoException) => {
  process.stderr.write(`could not start ${describeCommand(command)}: ${error.code ?? error.message}\n`);
  process.exit(127);
});
child.on('exit', (code, signal) => {
  const status = code ?? 128 + (signal === 'SIGKILL' ? 9 : 15);
  // The supervisor's own exit code cannot carry a signal: the harness hears it (SIGABRT, SIGSEGV) over IPC first.
  if (!process.connected) process.exit(status);
  process.send?.({ type: 'exited', code, signal }, () => process.exit(status));
});
process.on('SIGTERM', () => {
  child.kill('SIGTERM');
  setTimeout(killGroup, GRACE_MS).unref();
});
process.on('disconnect', killGroup);
