import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { contractJsonSchemaText } from './contract-json-schema.ts';
import { CONTRACT_SCHEMAS, runInputSchema } from './contract-schemas.ts';
import { checkContractPayloads } from './testing/contract-payloads.ts';

const CORPUS = fileURLToPath(new URL('../../test/corpus/', import.meta.url));
const FILE = fileURLToPath(new URL('../../contract/kernel-contract.schema.json', import.meta.url));

describe('the language-neutral contract', () => {
  it('is up to date with the zod schemas (run `npm run schema` when this fails)', () => {
    expect(readFileSync(FILE, 'utf8')).toBe(contractJsonSchemaText());
  });

  it('names every activity with its payloads, and every payload it names is defined', () => {
    const schema = JSON.parse(contractJsonSchemaText());
    expect(Object.keys(schema.activities)).toEqual(['call_model', 'kernel.compact_context', 'run_tool', 'journal.append']);
    const refs = [...contractJsonSchemaText().matchAll(/"#\/\$defs\/(\w+)"/g)].map((m) => m[1]);
    expect(refs.every((name) => name && name in schema.$defs)).toBe(true);
    expect(Object.keys(schema.$defs)).toEqual(Object.keys(CONTRACT_SCHEMAS));
  });

  it('accepts what the kernel sends and refuses what it never would', () => {
    const input = { runId: 'r', systemPrompt: 's', userRequest: 'u', settings: { agent: { model: 'm' } }, maxTurns: 5 };
    expect(runInputSchema.safeParse(input).success).toBe(true);
    expect(runInputSchema.safeParse({ ...input, maxTurns: 0 }).success).toBe(false);
    expect(
      runInputSchema.safeParse({ ...input, resume: { messages: [], counters: {}, journal: { nextSeq: 1, headHash: 'x' } } }).success,
    ).toBe(false);
  });
});

describe('the recorded corpus, read through the contract', () => {
  it('has every workflow input and every activity input and result of every release valid against its schema', () => {
    let checked = 0;
    const problems: string[] = [];
    for (const release of readdirSync(CORPUS).filter((entry) => /^v\d+$/.test(entry))) {
      for (const file of readdirSync(join(CORPUS, release)).filter((name) => name.endsWith('.json.gz'))) {
        const history = JSON.parse(gunzipSync(readFileSync(join(CORPUS, release, file))).toString('utf8'));
        const found = checkContractPayloads(history, `${release}/${file}`);
        checked += found.checked;
        problems.push(...found.problems);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it('names a payload that does not conform', () => {
    const input = Buffer.from(JSON.stringify({ runId: 'r', turn: 1, request: { model: 'm' } })).toString('base64');
    const history = {
      events: [
        {
          eventId: '5',
          activityTaskScheduledEventAttributes: { activityType: { name: 'call_model' }, input: { payloads: [{ data: input }] } },
        },
      ],
    };
    expect(checkContractPayloads(history, 'h.json').problems).toEqual([
      expect.stringMatching(/^h\.json event 5 call_model input: request\.messages /),
    ]);
  });
});
