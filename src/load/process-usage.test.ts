import { describe, expect, it } from 'vitest';
import { ownUsage, parseProcStat, parseVmRssBytes, readProcessUsage } from './process-usage.ts';

// A real line's shape (proc(5)): pid (comm) state ppid ... utime(14) stime(15) ... starttime(22) ...
const STAT = '4242 (temporal-server) S 4200 4242 4200 0 -1 4194560 11730 0 0 0 1834 412 0 0 20 0 23 0 24406 2009145344 31337';

describe('parseProcStat', () => {
  it('reads the command, the parent, user + system CPU time in seconds (its own and that of its reaped children) and the start time', () => {
    expect(parseProcStat(STAT)).toEqual({
      command: 'temporal-server',
      parentPid: 4200,
      cpuSeconds: 22.46,
      reapedChildrenCpuSeconds: 0,
      startTicks: 24406,
    });
  });

  it('keeps a command with spaces and parentheses whole', () => {
    const odd = STAT.replace('(temporal-server)', '(a) b (c))');
    expect(parseProcStat(odd)).toEqual({
      command: 'a) b (c)',
      parentPid: 4200,
      cpuSeconds: 22.46,
      reapedChildrenCpuSeconds: 0,
      startTicks: 24406,
    });
  });

  it('rejects what is not a stat line, saying so', () => {
    expect(() => parseProcStat('garbage')).toThrow('/proc stat: no (command)');
    expect(() => parseProcStat('1 (x) S')).toThrow('/proc stat: field 4 is not a number');
  });

  it('reads this process as the kernel sees it', async () => {
    const { readFileSync } = await import('node:fs');
    const stat = parseProcStat(readFileSync('/proc/self/stat', 'utf8'));
    expect(stat.parentPid).toBe(process.ppid);
    expect(stat.command).toBe(readFileSync('/proc/self/comm', 'utf8').trim());
  });
});

describe('parseVmRssBytes', () => {
  it('reads VmRSS (kB) as bytes', () => {
    expect(parseVmRssBytes('Name:\tx\nVmHWM:\t  900 kB\nVmRSS:\t  812 kB\nThreads:\t4\n')).toBe(812 * 1024);
  });

  it('says so when there is none (a kernel thread or a zombie)', () => {
    expect(() => parseVmRssBytes('Name:\tkthreadd\nState:\tS\n')).toThrow('/proc status: no VmRSS line');
  });
});

describe('readProcessUsage and ownUsage', () => {
  it('read this process from /proc as Node reads it', () => {
    const fromProc = readProcessUsage(process.pid);
    const own = ownUsage();
    expect(fromProc?.pid).toBe(process.pid);
    expect(own.pid).toBe(process.pid);
    expect(own.rssBytes).toBeGreaterThan(0);
    expect(own.cpuSeconds).toBeGreaterThan(0);
    // Both are the same process moments apart: RSS within 10 %, CPU within a few ticks.
    expect(Math.abs((fromProc?.rssBytes ?? 0) - own.rssBytes)).toBeLessThan(own.rssBytes / 10);
    expect(Math.abs((fromProc?.cpuSeconds ?? 0) - own.cpuSeconds)).toBeLessThan(0.5);
  });

  it('gives nothing for a process that is gone', () => {
    expect(readProcessUsage(2 ** 22 + 1)).toBeUndefined();
  });
});
