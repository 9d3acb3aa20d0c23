import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  findEmbeddedServerPid,
  findEmbeddedServicePid,
  findProcessByCommand,
  isDevServerOnPort,
  isDevServiceOnPort,
  serverPidFinder,
  servicePidsFinder,
} from './server-process.ts';

describe('isDevServerOnPort', () => {
  const args = ['/cache/temporal-server', 'server', 'start-dev', '--port', '45811', '--http-port', '40001', ''];

  it('knows the dev server on its gRPC port, not on its HTTP port', () => {
    expect(isDevServerOnPort(args, 45811)).toBe(true);
    expect(isDevServerOnPort(args, 40001)).toBe(false);
    expect(isDevServerOnPort(['temporal', 'server', 'start-dev', '--port=7233'], 7233)).toBe(true);
  });

  it('knows the frontend of a cluster run as one process per service, not the other services', () => {
    const service = (name: string) => [...args.slice(0, -1), '--service', name, '--service-port', 'history=40002'];
    expect(isDevServerOnPort(service('frontend'), 45811)).toBe(true);
    expect(isDevServerOnPort(service('history'), 45811)).toBe(false);
    expect(isDevServerOnPort(service('worker'), 45811)).toBe(false);
  });

  it('knows each service of a cluster run as one process per service, on the frontend port only', () => {
    const service = (name: string) => [...args.slice(0, -1), '--service', name, '--service-port', 'history=40002', ''];
    expect(isDevServiceOnPort(service('history'), 45811, 'history')).toBe(true);
    expect(isDevServiceOnPort(service('history'), 45811, 'matching')).toBe(false);
    expect(isDevServiceOnPort(service('history'), 45812, 'history')).toBe(false);
    // The dev server in one process runs every service, and is none of them.
    expect(isDevServiceOnPort(args, 45811, 'frontend')).toBe(false);
    expect(isDevServiceOnPort(['node', 'tool.js', '--port', '45811', '--service', 'history'], 45811, 'history')).toBe(false);
  });

  it('ignores anything that is not `server start-dev`', () => {
    expect(isDevServerOnPort(['temporal', 'workflow', 'start-dev', '--port', '45811'], 45811)).toBe(false);
    expect(isDevServerOnPort(['node', 'tool.js', '--port', '45811'], 45811)).toBe(false);
  });
});

describe('finding processes', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill();
  });
  async function started(command: string, args: string[]): Promise<ChildProcess> {
    const child = spawn(command, args, { stdio: 'ignore' });
    children.push(child);
    await new Promise((resolve) => child.once('spawn', resolve));
    return child;
  }

  it('finds a child started as `server start-dev --port N`, and only by its port', async () => {
    // A stand-in with the dev server's arguments after node's own.
    const child = await started(process.execPath, ['-e', 'setTimeout(() => {}, 30_000)', 'server', 'start-dev', '--port', '39999']);
    expect(findEmbeddedServerPid('127.0.0.1:39999')).toBe(child.pid);
    expect(findEmbeddedServerPid('127.0.0.1:39998')).toBeUndefined();
    expect(findEmbeddedServerPid('127.0.0.1:39999', process.ppid)).toBeUndefined();
    expect(serverPidFinder({ kind: 'embedded', address: '127.0.0.1:39999' })?.()).toBe(child.pid);
  });

  it('keeps finding the server it found, and finds the next one after a restart', async () => {
    const args = ['-e', 'setTimeout(() => {}, 30_000)', 'server', 'start-dev', '--port', '39997'];
    const find = serverPidFinder({ kind: 'embedded', address: '127.0.0.1:39997' });
    const first = await started(process.execPath, args);
    expect(find?.()).toBe(first.pid);
    expect(find?.()).toBe(first.pid);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    expect(find?.()).toBeUndefined();
    const second = await started(process.execPath, args);
    expect(find?.()).toBe(second.pid);
  });

  /** A stand-in for one service of the server run as one process per service: its arguments after node's own. */
  const service = (name: string, port: number) =>
    started(process.execPath, ['-e', 'setTimeout(() => {}, 30_000)', 'server', 'start-dev', '--port', String(port), '--service', name]);

  it('finds each service of the server run as one process per service, by name and port', async () => {
    const [frontend, history] = [await service('frontend', 39995), await service('history', 39995)];
    await service('history', 39994); // another cluster's
    expect(findEmbeddedServicePid('127.0.0.1:39995', 'frontend')).toBe(frontend.pid);
    expect(findEmbeddedServicePid('127.0.0.1:39995', 'history')).toBe(history.pid);
    expect(findEmbeddedServicePid('127.0.0.1:39995', 'matching')).toBeUndefined();
    expect(findEmbeddedServicePid('127.0.0.1:39995', 'history', process.ppid)).toBeUndefined();
    // The frontend is the server that clients talk to, as it was before its services were sampled.
    expect(findEmbeddedServerPid('127.0.0.1:39995')).toBe(frontend.pid);
    expect(() => findEmbeddedServicePid('localhost', 'history')).toThrow('findEmbeddedServicePid: address "localhost" has no port');
  });

  it('finds every service running, and a service restarted by chaos as the new process', async () => {
    const find = servicePidsFinder('127.0.0.1:39993', ['frontend', 'history', 'matching', 'worker']);
    const running = new Map<string, ChildProcess>();
    for (const name of ['frontend', 'history', 'matching', 'worker']) running.set(name, await service(name, 39993));
    const pids = () => Object.fromEntries([...running].map(([name, child]) => [name, child.pid]));
    expect(Object.fromEntries(find())).toEqual(pids());
    const killed = running.get('history') as ChildProcess;
    killed.kill('SIGKILL');
    await new Promise((resolve) => killed.once('exit', resolve));
    running.delete('history');
    expect(Object.fromEntries(find())).toEqual(pids());
    running.set('history', await service('history', 39993));
    expect(find().get('history')).toBe(running.get('history')?.pid);
    expect(Object.fromEntries(find())).toEqual(pids());
  });

  it('finds one process by its command name and refuses to guess between several', async () => {
    // The command name is the executable's file name: a link to sleep with a name of our own.
    const dir = mkdtempSync(join(tmpdir(), 'longrun-load-'));
    const name = `lr-${process.pid}`;
    symlinkSync('/bin/sleep', join(dir, name));
    try {
      expect(findProcessByCommand(name)).toBeUndefined();
      const first = await started(join(dir, name), ['30']);
      expect(findProcessByCommand(name)).toBe(first.pid);
      const second = await started(join(dir, name), ['30']);
      // Pids wrap around at pid_max, so the second may have the smaller pid.
      const pids = [first.pid as number, second.pid as number].sort((a, b) => a - b).join(', ');
      expect(() => findProcessByCommand(name)).toThrow(`findProcessByCommand: 2 processes named ${name} (pids ${pids})`);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('finds no server on an existing cluster unless told its command name', () => {
    expect(serverPidFinder({ kind: 'existing', address: 'temporal:7233' }, undefined)).toBeUndefined();
    expect(serverPidFinder({ kind: 'existing', address: 'temporal:7233' }, 'no-such-command')?.()).toBeUndefined();
  });

  it('says so when the address has no port', () => {
    expect(() => findEmbeddedServerPid('localhost')).toThrow('findEmbeddedServerPid: address "localhost" has no port');
  });
});
