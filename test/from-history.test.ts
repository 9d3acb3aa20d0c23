/**
 * `longrun scenario from-history` on real breaks: a history of the built-in tmprl1103 run on
 * v0, recorded here, becomes a scenario that, run on v0, breaks on the blob limit at the same
 * turn (within one), scaled or not, and carries no string of the source's payloads; the same
 * from history-size's run on v0 (a foreign worker's: from-history-foreign.test.ts).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractIdentifiers } from '../src/checks/index.ts';
import { TOOL_NAMES } from '../src/contract/messages.ts';
import { resolveScenario } from '../src/index.ts';
import { loadScenarioFile } from '../src/scenario/index.ts';
import { expectSameBreak, fromHistory, runOnce } from './from-history-support.ts';

const dir = mkdtempSync(join(tmpdir(), 'longrun-from-history-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The strings of a decoded value, those of a JSON text inside it (tool call arguments) too. */
function stringsIn(value: unknown, into: string[]): void {
  if (typeof value === 'string') {
    into.push(value);
    if (value.startsWith('{')) {
      try {
        stringsIn(JSON.parse(value), into);
      } catch {}
    }
  } else if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) stringsIn(inner, into);
  }
}

/** Every string a payload of the history carries (its json/plain payloads, decoded and walked to their leaves). */
function payloadStrings(json: string): string[] {
  const found: string[] = [];
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    const encoding = (record.metadata as Record<string, string> | undefined)?.encoding;
    if (typeof record.data === 'string' && encoding && Buffer.from(encoding, 'base64').toString() === 'json/plain') {
      stringsIn(JSON.parse(Buffer.from(record.data, 'base64').toString('utf8')), found);
      return;
    }
    for (const inner of Object.values(record)) visit(inner);
  };
  visit(JSON.parse(json));
  return found;
}

/** The built-in incident's run on v0 alone, recorded. */
async function recordOnV0(name: string) {
  const { scenario } = resolveScenario(name);
  const source = await runOnce({
    ...scenario,
    target: { binaries: ['v0'] },
    runs: { ...scenario.runs, count: 1, concurrency: 1 },
    expect: scenario.expect.filter((e) => e.on === 'v0' && 'reproduces' in e),
  });
  expect(source.broke?.incident).toBe(name);
  const file = join(dir, `${name}.json`);
  writeFileSync(file, source.json);
  return { ...source, file };
}

describe('longrun scenario from-history', () => {
  it("writes a scenario from a real tmprl1103 history on v0 that breaks on the blob limit at the same turn, scaled or not, and holds none of the source's strings", async () => {
    const source = await recordOnV0('tmprl1103');
    const { text, out } = await fromHistory(dir, source.file, 'replayed.yaml');
    const sha = createHash('sha256').update(readFileSync(source.file)).digest('hex');
    expect(text).toContain(`# From the history ${source.file}`);
    expect(text).toContain(sha);
    expect(text).toMatch(/^ {2}binaries: \[v0\]$/m);
    expect(text).toContain(`# Expected: tmprl1103 again, at turn ${source.broke?.turn} (within one).`);
    expect(text).toMatch(/reproduces: tmprl1103/);

    // No string of the source's payloads: prompts, outputs, texts, ids, arguments (tool names aside: the shape names its tools).
    const strings = payloadStrings(source.json);
    expect(strings.length).toBeGreaterThan(100);
    const needles = new Set<string>();
    for (const s of strings) {
      if ((TOOL_NAMES as readonly string[]).includes(s)) continue;
      if (s.length >= 8) needles.add(s);
      for (const line of s.split('\n')) if (line.trim().length >= 16) needles.add(line.trim());
      for (const id of extractIdentifiers(s)) if (id.length >= 6) needles.add(id);
    }
    expect(needles.size).toBeGreaterThan(100);
    expect([...needles].filter((needle) => text.includes(needle))).toEqual([]);

    const replayed = await runOnce(loadScenarioFile(out));
    expect(replayed.met).toEqual([true]);
    expectSameBreak(source.broke, replayed.broke, 'tmprl1103');
    // Turn by turn, the replay's requests weigh what the source's did, within a sixth of a turn's growth (outputs sized by their escaped bytes).
    for (const [i, bytes] of replayed.requests.entries()) {
      const was = source.requests[i] as number;
      expect(Math.abs(bytes - was), `turn ${i + 1}: ${bytes} bytes, the source's ${was}`).toBeLessThan(2048);
    }

    // A quarter of the sizes, the limits with them: the same turn still.
    const quarter = await fromHistory(dir, source.file, 'quarter.yaml', '--scale', '0.25');
    expect(quarter.text).toMatch(/^ {2}scale: 0\.25$/m);
    const small = await runOnce(loadScenarioFile(quarter.out));
    expect(small.met).toEqual([true]);
    expectSameBreak(source.broke, small.broke, 'tmprl1103 at scale 0.25');
  });

  it('writes a scenario from a real history-size history on v0 that is terminated at the same turn', async () => {
    const source = await recordOnV0('history-size');
    const { text, out } = await fromHistory(dir, source.file, 'history-size.yaml');
    expect(text).toMatch(/limit\.historySize\.error: 2097152/);
    expect(text).toMatch(/reproduces: history-size/);
    const replayed = await runOnce(loadScenarioFile(out));
    expect(replayed.met).toEqual([true]);
    expectSameBreak(source.broke, replayed.broke, 'history-size');
  });
});
