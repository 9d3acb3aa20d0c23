import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownedTempDir } from './owned-temp-dir.ts';

/** The pid of a process that has exited: nobody owns its folders any more. */
function deadPid(): number {
  const result = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(result.stdout.toString());
}

describe('ownedTempDir', () => {
  it("is named by this process's pid, and sweeps the folders a killed process left, not a live one's", () => {
    const root = mkdtempSync(join(tmpdir(), 'longrun-owned-'));
    const orphan = join(root, `longrun-server-${deadPid()}-aaaaaa`);
    mkdirSync(orphan);
    writeFileSync(join(orphan, 'temporal.sqlite'), 'x');
    const live = join(root, `longrun-server-${process.ppid}-bbbbbb`);
    mkdirSync(live);
    const other = join(root, 'longrun-bundles-1-cccccc');
    mkdirSync(other);
    const made = ownedTempDir('longrun-server-', root);
    expect(made.startsWith(join(root, `longrun-server-${process.pid}-`))).toBe(true);
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(readdirSync(root).sort()).toEqual(
      ['longrun-bundles-1-cccccc', `longrun-server-${process.ppid}-bbbbbb`, made.slice(root.length + 1)].sort(),
    );
  });
});
