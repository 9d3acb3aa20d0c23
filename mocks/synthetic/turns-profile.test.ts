import { describe, expect, it } from 'vitest';
import { planContextBytes, planRun, type RunPlan } from './plan-run.ts';
import { toolOutput } from './tool-output.ts';

const PROFILE = [
  { text: 300, calls: [{ tool: 'shell' as const, bytes: 5_000 }] },
  {
    calls: [
      { tool: 'read_file' as const, bytes: 120 },
      { tool: 'screenshot' as const, bytes: 20_000, pageText: 500 },
    ],
  },
  { text: 40, calls: [{ tool: 'diff' as const, bytes: 9_000 }] },
];

const SHAPE = {
  turnsProfile: PROFILE,
  systemPromptBytes: [
    [0, 5_000],
    [1, 5_000],
  ] as [number, number][],
};

const sizes = (plan: RunPlan) => plan.turns.map((t) => t.calls.map((c) => [c.tool, c.args.bytes, c.args.pageText]));

describe('planRun with a turns profile', () => {
  it('follows the profile turn by turn: the same tools, output sizes and text bytes, then a final answer', () => {
    const plan = planRun({ seed: 7, runId: 'profiled', shape: SHAPE });
    expect(plan.turns).toHaveLength(4);
    expect(sizes(plan)).toEqual([
      [['shell', 5_000, undefined]],
      [
        ['read_file', 120, undefined],
        ['screenshot', 20_000, 500],
      ],
      [['diff', 9_000, undefined]],
      [],
    ]);
    // The prompt is made of whole lines: about its size.
    expect(Math.abs(Buffer.byteLength(plan.systemPrompt) - 5_000)).toBeLessThan(100);
    const texts = plan.turns.map((t) => Buffer.byteLength(t.message.content as string));
    expect(texts[0]).toBe(300);
    expect(texts[2]).toBe(40);
    // The outputs are generated at those sizes, seeded: never a recorded byte.
    for (const call of plan.turns.flatMap((t) => t.calls).filter((c) => c.tool !== 'screenshot')) {
      expect(Buffer.byteLength(toolOutput(call.tool, call.args) as string)).toBe(call.args.bytes);
    }
    expect(plan.plannedBytes).toBe(planContextBytes(plan));
    expect(planRun({ seed: 7, runId: 'profiled', shape: SHAPE })).toEqual(plan);
    expect(planRun({ seed: 8, runId: 'profiled', shape: { turnsProfile: PROFILE } }).turns[0]?.message).not.toEqual(plan.turns[0]?.message);
  });

  it('sizes a text output by its escaped bytes when given, whatever format it draws', () => {
    const calls = Array.from({ length: 12 }, () => ({ tool: 'shell' as const, bytes: 1, escaped: 10_000 }));
    const plan = planRun({ seed: 3, runId: 'escaped', shape: { turnsProfile: [{ calls }] } });
    for (const call of plan.turns[0]?.calls ?? []) {
      const wire = Buffer.byteLength(JSON.stringify(toolOutput(call.tool, call.args)));
      expect(Math.abs(wire - 10_000), `${call.args.format}: ${wire}`).toBeLessThan(150);
    }
  });

  it('scales the profile as any other size, and refuses a turn without calls', () => {
    const plan = planRun({ seed: 7, runId: 'profiled', shape: { turnsProfile: PROFILE, scale: 0.5 } });
    expect(sizes(plan)).toEqual([
      [['shell', 2_500, undefined]],
      [
        ['read_file', 60, undefined],
        ['screenshot', 10_000, 250],
      ],
      [['diff', 4_500, undefined]],
      [],
    ]);
    expect(Buffer.byteLength(plan.turns[0]?.message.content as string)).toBe(150);
    expect(() => planRun({ seed: 1, runId: 'x', shape: { turnsProfile: [{ calls: [] }] } })).toThrow(/^shape\.turnsProfile\.0\.calls: /);
    expect(() => planRun({ seed: 1, runId: 'x', shape: { turnsProfile: [{ calls: [{ tool: 'fetch', bytes: 1 }] }] } as never })).toThrow(
      /^shape\.turnsProfile\.0\.calls\.0\.tool: /,
    );
  });
});
