import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockProvider } from './mock-provider.ts';
import { type InProcessMocks, startInProcessMocks } from './server/in-process.ts';
import { planRun } from './synthetic/plan-run.ts';
import { driveRun, type Exchange } from './testing/drive-run.ts';

let mocks: InProcessMocks | undefined;
afterEach(() => mocks?.close());

const SHAPE = { scale: 0.02, screenshots: { share: 0.2 } };

/** Plays two runs and a compaction through in-process mocks; returns every exchange's bytes. */
async function session(seed: number): Promise<Exchange[]> {
  mocks = startInProcessMocks({ seed, shape: SHAPE });
  const exchanges: Exchange[] = [];
  for (const runId of ['run-1', 'run-2']) {
    const plan = mocks.planFor(runId);
    const run = await driveRun({ ...mocks, runId, systemPrompt: plan.systemPrompt, userRequest: plan.userRequest });
    exchanges.push(...run.exchanges);
    const request = JSON.stringify({
      model: 'cheap',
      messages: [
        { role: 'system', content: 'compact' },
        { role: 'user', content: JSON.stringify(run.messages).slice(0, 50_000) },
      ],
      metadata: { longrun_run_id: runId, longrun_turn: '3', longrun_purpose: 'compaction' },
      stream: true,
    });
    const response = await fetch(`${mocks.modelBaseUrl}/chat/completions`, { method: 'POST', body: request });
    exchanges.push({ url: 'compaction', request, status: response.status, response: await response.text() });
  }
  mocks.close();
  return exchanges;
}

const digest = (exchanges: Exchange[]) => createHash('sha256').update(JSON.stringify(exchanges)).digest('hex');

describe('createMockProvider', () => {
  it('gives identical request and response bytes for the same seed, different ones for another', async () => {
    const first = await session(1);
    expect(first.length).toBeGreaterThan(10);
    expect(first.some((e) => e.response.includes('data:image/png;base64,'))).toBe(true);
    expect(digest(await session(1))).toBe(digest(first));
    expect(digest(await session(2))).not.toBe(digest(first));
  });

  it('plans a run id ending in a number at that index, and a runner can supply its own plans', () => {
    const provider = createMockProvider({ seed: 4 });
    expect(provider.planFor('soak-0042')).toEqual(planRun({ seed: 4, runId: 'soak-0042', index: 42 }));
    expect(provider.planFor('soak-0042')).toBe(provider.planFor('soak-0042'));
    const own = planRun({ seed: 1, runId: 'x', shape: { overrides: { turns: 2 } } });
    expect(createMockProvider({ seed: 4, plans: () => own }).planFor('anything')).toBe(own);
  });

  it('fails at creation on a bad shape or fault profile, naming the field', () => {
    expect(() => createMockProvider({ seed: 1, shape: { screenshots: { share: 2 } } })).toThrow(/^shape\.screenshots\.share: /);
    expect(() => createMockProvider({ seed: 1, faults: { agent: [{ fault: { kind: 'nope' } }] } as never })).toThrow(
      /^faults\.agent\.0\.fault\.kind: /,
    );
  });
});
