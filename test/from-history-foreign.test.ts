/**
 * `longrun scenario from-history --target` on foreign workers' real breaks: a history of the Go
 * kernel's go-v0 under go-tmprl1103, and one of the OpenAI Agents SDK under agents-sdk-long, each
 * recorded here, become scenarios that break on the blob limit on the same worker at the same
 * turn (within one).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readKernelMappingFile } from '../src/checks/index.ts';
import { loadScenarioFile } from '../src/scenario/index.ts';
import { expectSameBreak, fromHistory, recordForeign, runOnce } from './from-history-support.ts';

const dir = mkdtempSync(join(tmpdir(), 'longrun-from-history-foreign-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('longrun scenario from-history --target', () => {
  it.each([
    { name: 'go-tmprl1103', binary: 'go-v0', mappingFile: 'examples/go-kernel/mapping.json' },
    { name: 'agents-sdk-long', binary: 'agents-sdk', mappingFile: 'examples/agents-sdk/mapping.json' },
  ])('replays a real $name history on its own worker ($binary), breaking at the same turn', async ({ name, binary, mappingFile }) => {
    const mapping = readKernelMappingFile(mappingFile);
    const source = await recordForeign(dir, name, binary, mapping);
    expect(source.broke?.incident).toBe('tmprl1103');
    const { text, out } = await fromHistory(dir, source.file, `${name}.yaml`, '--mapping', mappingFile, '--target', name);
    expect(text).toMatch(new RegExp(`^ {6}${binary}:$`, 'm'));
    expect(text).toMatch(new RegExp(`^ {2}- on: ${binary}$`, 'm'));
    const replayed = await runOnce(loadScenarioFile(out), { file: out, mapping });
    expect(replayed.met).toEqual([true]);
    expectSameBreak(source.broke, replayed.broke, name);
  });
});
