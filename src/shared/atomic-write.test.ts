import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { atomicWriteFile } from './atomic-write.ts';

describe('atomicWriteFile', () => {
  it('writes and replaces a file, leaving no temporary file behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'longrun-atomic-'));
    const path = join(dir, 'summary.json');
    await atomicWriteFile(path, '{"v":1}');
    await atomicWriteFile(path, new TextEncoder().encode('{"v":2}'));
    expect(readFileSync(path, 'utf8')).toBe('{"v":2}');
    expect(readdirSync(dir)).toEqual(['summary.json']);
  });

  it('on failure keeps what was there and removes its temporary file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'longrun-atomic-'));
    writeFileSync(join(dir, 'keep.txt'), 'old');
    // A folder where the file should go: the rename fails after the temporary file was written.
    mkdirSync(join(dir, 'report.html'));
    await expect(atomicWriteFile(join(dir, 'report.html'), '<html>')).rejects.toThrow();
    expect(readdirSync(dir).sort()).toEqual(['keep.txt', 'report.html']);
    expect(readFileSync(join(dir, 'keep.txt'), 'utf8')).toBe('old');
  });

  it('fails when the folder does not exist', async () => {
    await expect(atomicWriteFile(join(tmpdir(), 'longrun-no-such-folder', 'x.json'), 'x')).rejects.toThrow(/ENOENT/);
  });
});
