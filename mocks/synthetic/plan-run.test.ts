import { describe, expect, it } from 'vitest';
import { extractIdentifiers } from '../../src/contract/identifiers.ts';
import { BLOB_LIMIT_BYTES, BYTES_PER_TOKEN } from '../../src/contract/limits.ts';
import type { ContentPart, SyntheticToolArgs } from '../../src/contract/messages.ts';
import { planContextBytes, planRun, type RunPlan } from './plan-run.ts';
import { contextBytes, runMessages } from './run-messages.ts';
import { toolContentWireBytes, toolOutput } from './tool-output.ts';

const SEED = 20261108;

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

/**
 * The JSON bytes of a run's final context with every text output generated. Screenshots are
 * counted by their exact wire size (checked against real PNGs below): encoding the ~900 PNGs
 * of a thousand runs would take this test from seconds to a minute.
 */
function measuredBytes(plan: RunPlan): number {
  const sizes = [jsonBytes({ role: 'system', content: plan.systemPrompt }), jsonBytes({ role: 'user', content: plan.userRequest })];
  for (const turn of plan.turns) {
    sizes.push(jsonBytes(turn.message));
    for (const call of turn.calls) {
      const envelope = { role: 'tool', tool_call_id: call.id };
      sizes.push(
        call.tool === 'screenshot'
          ? jsonBytes({ ...envelope, content: '' }) - 2 + toolContentWireBytes('screenshot', call.args)
          : jsonBytes({ ...envelope, content: toolOutput(call.tool, call.args) }),
      );
    }
  }
  return 2 + sizes.reduce((a, b) => a + b, 0) + sizes.length - 1;
}

function nearestRank(sorted: number[], q: number): number {
  return sorted[Math.ceil(q * sorted.length) - 1] as number;
}

describe('planRun', () => {
  it('over 1000 runs, final contexts reproduce production p50, p90 and max tokens within 10%', () => {
    const tokens: number[] = [];
    let worstError = 0;
    for (let index = 0; index < 1000; index++) {
      const plan = planRun({ seed: SEED, runId: `run-${index}`, index });
      const bytes = measuredBytes(plan);
      worstError = Math.max(worstError, Math.abs(bytes - plan.targetBytes) / plan.targetBytes);
      tokens.push(bytes / BYTES_PER_TOKEN);
    }
    tokens.sort((a, b) => a - b);
    expect(Math.abs(nearestRank(tokens, 0.5) / 56_000 - 1)).toBeLessThan(0.1);
    expect(Math.abs(nearestRank(tokens, 0.9) / 151_000 - 1)).toBeLessThan(0.1);
    expect(Math.abs((tokens.at(-1) as number) / 730_000 - 1)).toBeLessThan(0.1);
    // Each run honours its own drawn size, not just the population.
    expect(worstError).toBeLessThan(0.02);
  });

  it('counts screenshots at their exact wire size, and their page text within its escaping', () => {
    for (const bytes of [256, 12_345, 80_000]) {
      const args = { seed: bytes, bytes, url: 'http://localhost:3000/cart' };
      expect(jsonBytes(toolOutput('screenshot', args))).toBe(toolContentWireBytes('screenshot', args));
      const withPage = { ...args, pageText: 30_000, multibyte: 0.4 };
      const wire = jsonBytes(toolOutput('screenshot', withPage));
      expect(wire - jsonBytes(toolOutput('screenshot', args))).toBeGreaterThan(30_000);
      expect(Math.abs(wire - toolContentWireBytes('screenshot', withPage)) / wire).toBeLessThan(0.01);
    }
  });

  it('plans what its fully generated messages weigh, screenshots included', () => {
    const shape = {
      tokens: [
        [0, 30_000],
        [1, 60_000],
      ] as [number, number][],
      screenshots: {
        share: 0.3,
        bytes: [
          [0, 5_000],
          [1, 20_000],
        ] as [number, number][],
      },
    };
    for (const runId of ['a', 'b', 'c']) {
      const plan = planRun({ seed: SEED, runId, shape });
      expect(plan.turns.some((t) => t.calls.some((c) => c.tool === 'screenshot'))).toBe(true);
      const actual = contextBytes(runMessages(plan));
      expect(Math.abs(actual - plan.plannedBytes) / actual).toBeLessThan(0.005);
      expect(Math.abs(actual - plan.targetBytes) / actual).toBeLessThan(0.02);
    }
  });

  it('is byte-identical for the same seed and run id, and differs otherwise', () => {
    const a = JSON.stringify(planRun({ seed: SEED, runId: 'run-1' }));
    expect(JSON.stringify(planRun({ seed: SEED, runId: 'run-1' }))).toBe(a);
    expect(JSON.stringify(planRun({ seed: SEED + 1, runId: 'run-1' }))).not.toBe(a);
    expect(JSON.stringify(planRun({ seed: SEED, runId: 'run-2' }))).not.toBe(a);
  });

  it('answers with tool calls on every turn but the last, whose arguments describe their output', () => {
    const plan = planRun({ seed: SEED, runId: 'run-3' });
    expect(plan.turns.map((t) => t.turn)).toEqual(plan.turns.map((_, i) => i + 1));
    const last = plan.turns.at(-1);
    expect(last?.message.tool_calls).toBeUndefined();
    expect(last?.message.content).toContain(plan.identifiers[0]);
    for (const turn of plan.turns.slice(0, -1)) {
      expect(turn.message.tool_calls?.length).toBeGreaterThan(0);
      for (const call of turn.message.tool_calls ?? []) {
        const args = JSON.parse(call.function.arguments) as SyntheticToolArgs;
        expect(Number.isInteger(args.seed) && Number.isInteger(args.bytes) && args.bytes > 0).toBe(true);
        expect(Object.keys(args).length).toBeGreaterThan(2);
      }
    }
    for (const identifier of plan.identifiers) expect(plan.userRequest).toContain(identifier);
  });

  it('plans non-ASCII runs in UTF-8 bytes, and a share of 0 is ASCII', () => {
    const tokens: [number, number][] = [
      [0, 20_000],
      [1, 40_000],
    ];
    const ascii = planRun({ seed: SEED, runId: 'mb', shape: { tokens, text: { multibyteShare: 0, loneSurrogateShare: 0 } } });
    expect(JSON.stringify(runMessages(ascii))).toMatch(/^[\x20-\x7e]*$/);
    for (const multibyteShare of [0.4, 1]) {
      const plan = planRun({ seed: SEED, runId: 'mb', shape: { tokens, text: { multibyteShare, loneSurrogateShare: 0.01 } } });
      const messages = runMessages(plan);
      const json = JSON.stringify(messages);
      expect(json).toMatch(/[\u0400-\u04ff]/);
      expect(Buffer.byteLength(json)).toBeGreaterThan(json.length * 1.03);
      const actual = contextBytes(messages);
      expect(Math.abs(actual - plan.plannedBytes) / actual).toBeLessThan(0.005);
      expect(Math.abs(actual - plan.targetBytes) / actual).toBeLessThan(0.02);
      // In Russian too, the request names its identifiers apart, as the compaction checks extract them.
      expect(extractIdentifiers(plan.userRequest)).toEqual(expect.arrayContaining(plan.identifiers));
    }
  });

  it('reproduces a text-only run that grows past the 2 MiB blob limit', () => {
    const plan = planRun({
      seed: SEED,
      runId: 'incident-1',
      shape: { screenshots: { share: 0 }, overrides: { targetTokens: 900_000 } },
    });
    expect(plan.turns.flatMap((t) => t.calls).every((c) => c.tool !== 'screenshot')).toBe(true);
    expect(contextBytes(runMessages(plan))).toBeGreaterThan(BLOB_LIMIT_BYTES);
  });

  it('honours fixed turns, bytes per turn and a screenshot storm', () => {
    const plan = planRun({
      seed: SEED,
      runId: 'storm',
      shape: { overrides: { turns: 9, bytesPerTurn: 50_000, screenshotEvery: 2, screenshotBytes: 1_500_000 } },
    });
    expect(plan.turns).toHaveLength(9);
    plan.turns.slice(0, -1).forEach((turn) => {
      const shots = turn.calls.filter((c) => c.tool === 'screenshot');
      expect(shots.map((c) => c.args.bytes)).toEqual(turn.turn % 2 === 0 ? [1_500_000] : []);
      const texts = turn.calls.filter((c) => c.tool !== 'screenshot');
      if (texts.length > 0) expect(texts.reduce((sum, c) => sum + c.args.bytes, 0)).toBe(50_000);
    });
  });

  it("gives every screenshot the page's visible text beside its image when asked, planned at its wire size", () => {
    const shape = {
      screenshots: { share: 0 },
      text: { multibyteShare: 0.4 },
      overrides: { turns: 9, bytesPerTurn: 2_000, screenshotEvery: 2, screenshotBytes: 3_000, screenshotPageTextBytes: 12_000 },
    };
    const plan = planRun({ seed: SEED, runId: 'browser', shape });
    const shots = plan.turns.flatMap((t) => t.calls).filter((c) => c.tool === 'screenshot');
    expect(shots).toHaveLength(4);
    for (const shot of shots) {
      const [text, image] = toolOutput('screenshot', shot.args) as ContentPart[];
      expect(image?.type).toBe('image_url');
      if (text?.type !== 'text') throw new Error('the first part is not a text');
      const [caption, page] = text.text.split('\n\n', 2) as [string, string];
      expect(caption).toMatch(/^Screenshot of http/);
      expect(Buffer.byteLength(text.text) - Buffer.byteLength(caption) - 2).toBe(12_000);
      expect(page).toMatch(/^# \w+ Admin\n/);
    }
    const pageTexts = shots.map((shot) => JSON.stringify(toolOutput('screenshot', shot.args)[0]));
    expect(pageTexts.some((text) => Buffer.byteLength(text) > text.length)).toBe(true);
    const actual = contextBytes(runMessages(plan));
    expect(Math.abs(actual - plan.plannedBytes) / actual).toBeLessThan(0.005);
    const scaled = planRun({ seed: SEED, runId: 'browser', shape: { ...shape, scale: 0.5 } });
    expect(scaled.turns.flatMap((t) => t.calls).filter((c) => c.tool === 'screenshot')[0]?.args.pageText).toBe(6_000);
  });

  it('makes every tool turn exactly callsPerTurn calls when overridden (many small ones)', () => {
    const plan = planRun({
      seed: SEED,
      runId: 'chatty',
      shape: { screenshots: { share: 0 }, overrides: { turns: 12, bytesPerTurn: 640, callsPerTurn: 20 } },
    });
    const toolTurns = plan.turns.slice(0, -1);
    expect(toolTurns.map((t) => t.calls.length)).toEqual(Array(11).fill(20));
    for (const turn of toolTurns) expect(turn.calls.reduce((sum, c) => sum + c.args.bytes, 0)).toBe(640);
    expect(() => planRun({ seed: 1, runId: 'x', shape: { overrides: { callsPerTurn: 0 } } })).toThrow(/^shape\.overrides\.callsPerTurn: /);
  });

  it('makes every tool turn say exactly narrationBytes UTF-8 bytes when overridden, multibyte text included', () => {
    const shape = { screenshots: { share: 0 }, text: { multibyteShare: 0.5 }, overrides: { turns: 12, bytesPerTurn: 1_000 } };
    const short = planRun({ seed: SEED, runId: 'talkative', shape });
    const long = planRun({ seed: SEED, runId: 'talkative', shape: { ...shape, overrides: { ...shape.overrides, narrationBytes: 4_000 } } });
    const texts = (plan: RunPlan) => plan.turns.slice(0, -1).map((t) => t.message.content as string);
    expect(texts(long).map((text) => Buffer.byteLength(text))).toEqual(Array(11).fill(4_000));
    expect(texts(long).some((text) => Buffer.byteLength(text) > text.length)).toBe(true);
    // The same turns, calls and outputs; each text begins as the short one does.
    expect(long.turns.map((t) => t.calls)).toEqual(short.turns.map((t) => t.calls));
    const shortTexts = texts(short);
    for (const [i, text] of texts(long).entries()) expect(text.startsWith(shortTexts[i] as string)).toBe(true);
    expect(long.plannedBytes).toBe(planContextBytes(long));
    expect(
      planRun({ seed: SEED, runId: 'talkative', shape: { ...shape, overrides: { ...shape.overrides, narrationBytes: 4_000 } } }),
    ).toEqual(long);
  });

  it('scales every generated size and keeps turns, calls and messages', () => {
    const full = planRun({ seed: SEED, runId: 'run-9', shape: { overrides: { targetTokens: 400_000 } } });
    const small = planRun({ seed: SEED, runId: 'run-9', shape: { scale: 0.01, overrides: { targetTokens: 400_000 } } });
    expect(small.turns.map((t) => t.calls.map((c) => [c.id, c.tool]))).toEqual(full.turns.map((t) => t.calls.map((c) => [c.id, c.tool])));
    const fullCalls = full.turns.flatMap((t) => t.calls);
    small.turns
      .flatMap((t) => t.calls)
      .forEach((call, i) => {
        const unscaled = fullCalls[i]?.args.bytes as number;
        expect(call.args.bytes).toBe(Math.max(call.tool === 'screenshot' ? 256 : 1, Math.round(unscaled * 0.01)));
      });
    const turns = full.turns.length;
    expect(small.plannedBytes).toBeLessThan(0.01 * full.plannedBytes + 600 * turns);
    expect(small.plannedBytes).toBe(planContextBytes(small));
  });

  it('names the field of bad input', () => {
    expect(() => planRun({ seed: -1, runId: 'x' })).toThrow(/^seed: /);
    expect(() => planRun({ seed: 1, runId: '' })).toThrow(/^runId: /);
    expect(() => planRun({ seed: 1, runId: 'x', index: 1.5 })).toThrow(/^index: /);
    expect(() => planRun({ seed: 1, runId: 'x', shape: { scale: 0 } })).toThrow(/^shape\.scale: /);
    expect(() => planRun({ seed: 1, runId: 'x', shape: { overrides: { turns: 0 } } })).toThrow(/^shape\.overrides\.turns: /);
    expect(() =>
      planRun({
        seed: 1,
        runId: 'x',
        shape: {
          tokens: [
            [0, 5],
            [0.5, 10],
          ],
        },
      }),
    ).toThrow(/^shape\.tokens: /);
  });
});
