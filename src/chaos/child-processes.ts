/**
 * Every process chaos starts (workers, Toxiproxy), so that none outlives the harness: they are
 * SIGKILLed when this process exits, and on demand from a signal handler. Each child also dies
 * by itself when its parent does (workers when their IPC channel closes, Toxiproxy when its
 * stdin does), which covers a parent that is SIGKILLed.
 */
import type { ChildProcess } from 'node:child_process';

/**
 * Every live child, whether it leads a process group of its own (killed as a whole), and whether
 * it is infrastructure the stop itself needs (Toxiproxy: the server's path to its database).
 */
const live = new Map<ChildProcess, { group: boolean; infrastructure: boolean }>();
let exitHookInstalled = false;

export function trackChild(child: ChildProcess, options: { group?: boolean; infrastructure?: boolean } = {}): void {
  live.set(child, { group: options.group ?? false, infrastructure: options.infrastructure ?? false });
  child.once('exit', () => live.delete(child));
  if (!exitHookInstalled) {
    process.on('exit', killAllChildren);
    exitHookInstalled = true;
  }
}

/**
 * SIGKILLs every live child now; synchronous, so it works in 'exit' and signal handlers. The
 * library's way to end its chaos processes at once: it installs no signal handler itself.
 */
export function killAllChildren(): void {
  for (const [child, { group }] of live) if (isRunning(child)) killNow(child, group);
}

/**
 * SIGKILLs every live child but the infrastructure: what a signal does at once. Toxiproxy stays
 * until the harness closes, after the server: on a `temporal-postgres` link it is the server's
 * only way to its database, which the stop needs to end the runs and read their histories.
 */
export function killStrikingChildren(): void {
  for (const [child, { group, infrastructure }] of live) if (!infrastructure && isRunning(child)) killNow(child, group);
}

/** SIGKILLs the child, or its whole process group when it leads one. */
export function killNow(child: ChildProcess, group = live.get(child)?.group ?? false): void {
  if (group && child.pid !== undefined) {
    try {
      process.kill(-child.pid, 'SIGKILL');
      return;
    } catch {
      // The group is gone already; the child itself may not be.
    }
  }
  child.kill('SIGKILL');
}

export function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Resolves when the child has exited (at once if it already has). */
export function exitOf(child: ChildProcess): Promise<ExitStatus> {
  if (!isRunning(child)) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** SIGTERM, then SIGKILL if the child has not exited after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs: number): Promise<ExitStatus> {
  const exited = exitOf(child);
  if (!isRunning(child)) return exited;
  child.kill('SIGTERM');
  const timer = setTimeout(() => isRunning(child) && killNow(child), graceMs);
  try {
    return await exited;
  } finally {
    clearTimeout(timer);
  }
}

/** Keeps the last `maxBytes` of a stream, for the error message of a child that failed. */
export function tailOf(stream: NodeJS.ReadableStream | null, maxBytes = 4_000): () => string {
  let tail = '';
  stream?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-maxBytes);
  });
  return () => tail.trim();
}
