/** The processes a longrun under test started, for tests that strike them or check none is left. */
import { readFileSync } from 'node:fs';
import { childPids } from '../src/load/index.ts';

/** Every process below `pid`, children first. */
export function descendants(pid: number): number[] {
  const children = childPids(pid);
  return [...children, ...children.flatMap(descendants)];
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}
