/**
 * Finds the Temporal server's process, to sample its memory and CPU: the embedded server is
 * a child of this process started with `server start-dev --port <its gRPC port>`; a server in
 * another container is found by its command name when the PID namespace is shared with it
 * (docker compose `pid: service:temporal`). The embedded server run as one process per service
 * is found service by service, by `--service NAME` on the frontend's port.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { parseProcStat } from './process-usage.ts';

interface ProcEntry {
  pid: number;
  command: string;
  parentPid: number;
  /** When the process started (clock ticks after boot): with the pid, the process's identity. */
  startTicks: number;
}

function processes(): ProcEntry[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => procEntry(Number(name)) ?? []);
}

function argv(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

/** True when the arguments start a dev server (`server start-dev`) on this gRPC port. */
function isDevServerOn(args: readonly string[], port: number): boolean {
  const at = args.indexOf('start-dev');
  if (at < 1 || args[at - 1] !== 'server') return false;
  return args.some((arg, i) => (arg === '--port' && args[i + 1] === String(port)) || arg === `--port=${port}`);
}

/** The service a dev server's arguments name (`--service NAME`); undefined for every service in one process. */
function serviceOf(args: readonly string[]): string | undefined {
  const at = args.indexOf('--service');
  return at < 0 ? undefined : (args[at + 1] ?? '');
}

/**
 * True when the arguments start a dev server (`server start-dev`) on this gRPC port. Of a
 * cluster run as one process per service (`--service`), all on the frontend's port, only the
 * frontend counts: the process clients talk to.
 */
export function isDevServerOnPort(args: readonly string[], port: number): boolean {
  const service = serviceOf(args);
  return isDevServerOn(args, port) && (service === undefined || service === 'frontend');
}

/** True when the arguments start `service` of a dev server run as one process per service on this gRPC port. */
export function isDevServiceOnPort(args: readonly string[], port: number, service: string): boolean {
  return isDevServerOn(args, port) && serviceOf(args) === service;
}

/** The pids of the live processes whose parent is `parentPid`, whichever of its threads started them. */
export function childPids(parentPid: number): number[] {
  return processes()
    .filter((p) => p.parentPid === parentPid)
    .map((p) => p.pid);
}

/** The pid of the embedded server listening on `address` (host:port) started by `parentPid`. */
export function findEmbeddedServerPid(address: string, parentPid: number = process.pid): number | undefined {
  const port = portOf(address, 'findEmbeddedServerPid');
  return childWith(parentPid, (args) => isDevServerOnPort(args, port));
}

/** The pid of one service of the embedded server run as one process per service, its frontend on `address`. */
export function findEmbeddedServicePid(address: string, service: string, parentPid: number = process.pid): number | undefined {
  const port = portOf(address, 'findEmbeddedServicePid');
  return childWith(parentPid, (args) => isDevServiceOnPort(args, port, service));
}

function childWith(parentPid: number, matches: (args: string[]) => boolean): number | undefined {
  return processes().find((p) => p.parentPid === parentPid && matches(argv(p.pid)))?.pid;
}

function portOf(address: string, caller: string): number {
  const port = Number(address.slice(address.lastIndexOf(':') + 1));
  if (!Number.isInteger(port) || port <= 0) throw new Error(`${caller}: address ${JSON.stringify(address)} has no port`);
  return port;
}

/** The pid of the one process with this command name (/proc/<pid>/comm, 15 characters at most). */
export function findProcessByCommand(command: string): number | undefined {
  const found = processes().filter((p) => p.command === command.slice(0, 15));
  if (found.length > 1)
    throw new Error(
      `findProcessByCommand: ${found.length} processes named ${command} (pids ${found
        .map((p) => p.pid)
        .sort((a, b) => a - b)
        .join(', ')})`,
    );
  return found[0]?.pid;
}

/**
 * How the sampler finds the server of an environment: the embedded server by its port; on an
 * existing cluster the process named by LONGRUN_SERVER_PROCESS (e.g. temporal-server, with the
 * PID namespace shared), else none.
 */
export function serverPidFinder(
  env: { kind: 'embedded' | 'existing'; address: string },
  command: string | undefined = process.env.LONGRUN_SERVER_PROCESS,
): (() => number | undefined) | undefined {
  if (env.kind === 'embedded') return remembered(() => findEmbeddedServerPid(env.address));
  return command ? remembered(() => findProcessByCommand(command)) : undefined;
}

/**
 * How the sampler finds the processes of the embedded server run as one process per service
 * (`server.topology: services`), its frontend on `address`: each service's pid by name, those
 * running now. Each is remembered on its own, so a service restarted by chaos is looked for
 * again while the others are not.
 */
export function servicePidsFinder(address: string, services: readonly string[]): () => Map<string, number> {
  const finders = services.map((service) => [service, remembered(() => findEmbeddedServicePid(address, service))] as const);
  return () => {
    const found = new Map<string, number>();
    for (const [service, find] of finders) {
      const pid = find();
      if (pid !== undefined) found.set(service, pid);
    }
    return found;
  };
}

/**
 * `find` once, then the same pid for as long as that process lives: scanning every process of
 * the machine on each sample cost the harness ~0.5 s of CPU a minute on a busy machine. A server
 * restarted by chaos is a new process, found by the next scan.
 */
function remembered(find: () => number | undefined): () => number | undefined {
  let found: ProcEntry | undefined;
  return () => {
    if (found && sameProcess(found)) return found.pid;
    const pid = find();
    found = pid === undefined ? undefined : procEntry(pid);
    return found?.pid;
  };
}

function procEntry(pid: number): ProcEntry | undefined {
  try {
    const stat = parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    return { pid, command: stat.command, parentPid: stat.parentPid, startTicks: stat.startTicks };
  } catch {
    return undefined; // exited while we looked
  }
}

/** Still the process we found: a pid reused by another process has another start time. */
function sameProcess(entry: ProcEntry): boolean {
  return procEntry(entry.pid)?.startTicks === entry.startTicks;
}
