/**
 * Wall time, CPU and peak memory of one measured stretch, for this process (harness, mocks,
 * activities and the workflow threads) and for the Temporal server child apart.
 */
import { cpus, loadavg } from 'node:os';
import { mainThreadCpuMs, resetPeakRss, sampleProcess } from './proc-stat.ts';
import { type Bottleneck, bottleneck } from './stats.ts';

export interface Meter {
  wallMs: number;
  /** CPU of this process over the stretch, all threads, ms. */
  selfCpuMs: number;
  /** CPU of this process's main thread (activities, mocks, checks, replay), ms; the workflow threads are the rest. */
  mainThreadCpuMs: number;
  /** CPU of the server process over the stretch, ms (0 when it is not a child of ours). */
  serverCpuMs: number;
  selfPeakRssBytes: number;
  serverPeakRssBytes: number;
}

export async function metered<T>(serverPid: number | undefined, work: () => Promise<T>): Promise<{ value: T; meter: Meter }> {
  resetPeakRss(process.pid);
  if (serverPid !== undefined) resetPeakRss(serverPid);
  const server0 = serverPid !== undefined ? sampleProcess(serverPid).cpuMs : 0;
  const cpu0 = process.cpuUsage();
  const main0 = mainThreadCpuMs(process.pid);
  const started = performance.now();
  const value = await work();
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  const self = sampleProcess(process.pid);
  const server = serverPid !== undefined ? sampleProcess(serverPid) : undefined;
  return {
    value,
    meter: {
      wallMs,
      selfCpuMs: (cpu.user + cpu.system) / 1000,
      mainThreadCpuMs: mainThreadCpuMs(process.pid) - main0,
      serverCpuMs: server ? server.cpuMs - server0 : 0,
      selfPeakRssBytes: self.peakRssBytes,
      serverPeakRssBytes: server?.peakRssBytes ?? 0,
    },
  };
}

/** What held a measured stretch back, read against this machine's cores and its load now. */
export function bottleneckOf(meter: Meter): Bottleneck {
  return bottleneck({ ...meter, cores: cpus().length, loadAverage: loadavg()[0] ?? 0 });
}
