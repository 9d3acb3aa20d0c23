import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { exitOf, trackChild } from '../chaos/child-processes.ts';
import { type SignalStop, stopOnSignals } from './stop-on-signals.ts';

let stop: SignalStop | undefined;
afterEach(() => {
  stop?.release();
  vi.restoreAllMocks();
});

describe('stopOnSignals', () => {
  it('aborts on the first SIGINT or SIGTERM, killing the chaos processes at once', async () => {
    const chaosProcess = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    trackChild(chaosProcess);
    const said: string[] = [];
    stop = stopOnSignals((signal) => said.push(signal));
    process.emit('SIGTERM', 'SIGTERM');
    expect(stop.signal.aborted).toBe(true);
    expect(said).toEqual(['SIGTERM']);
    expect(await exitOf(chaosProcess)).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it("keeps the infrastructure the stop needs (Toxiproxy, the server's path to its database) until the second", async () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Error(`exit ${code}`);
    });
    const worker = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const proxy = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    trackChild(worker);
    trackChild(proxy, { infrastructure: true });
    stop = stopOnSignals(() => {});
    process.emit('SIGTERM', 'SIGTERM');
    expect(await exitOf(worker)).toEqual({ code: null, signal: 'SIGKILL' });
    expect(proxy.exitCode === null && proxy.signalCode === null).toBe(true);
    expect(() => process.emit('SIGTERM', 'SIGTERM')).toThrow('exit 130');
    expect(exit).toHaveBeenCalledWith(130);
    expect(await exitOf(proxy)).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('exits at once on the second, and gives the signals back on release', () => {
    // process.exit does not return: the stand-in throws, so nothing after it runs either.
    const exit = vi.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Error(`exit ${code}`);
    });
    const listening = () => [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
    const before = listening();
    const said: string[] = [];
    stop = stopOnSignals((signal) => said.push(signal));
    process.emit('SIGINT', 'SIGINT');
    expect(exit).not.toHaveBeenCalled();
    expect(() => process.emit('SIGINT', 'SIGINT')).toThrow('exit 130');
    expect(said).toEqual(['SIGINT']);
    stop.release();
    expect(listening()).toEqual(before);
  });

  it('holds a signal while the report is written: said once, no exit, returned once the work is done', async () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Error(`exit ${code}`);
    });
    const written = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    stop = stopOnSignals(() => {});
    process.emit('SIGTERM', 'SIGTERM');
    const steps: string[] = [];
    const held = await stop.holdWhile(async () => {
      process.emit('SIGHUP', 'SIGHUP');
      process.emit('SIGINT', 'SIGINT');
      await new Promise((resolve) => setTimeout(resolve, 10));
      steps.push('written');
    }, 'writing the report first');
    expect(held).toBe('SIGHUP');
    expect(steps).toEqual(['written']);
    expect(exit).not.toHaveBeenCalled();
    expect(written.mock.calls.map(([text]) => String(text))).toEqual(['\nlongrun: SIGHUP: writing the report first\n']);
    // Held no more: the next signal quits at once again.
    expect(() => process.emit('SIGTERM', 'SIGTERM')).toThrow('exit 130');
  });
});
