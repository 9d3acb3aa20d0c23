import { describe, expect, it } from 'vitest';
import { carriedBytes, carriedText } from './carried-text.ts';
import { planRun } from './plan-run.ts';
import { toolContentWireBytes } from './tool-output.ts';

const plan = planRun({ seed: 3, runId: 'run-1', shape: { overrides: { turns: 4 } } });

describe('carriedText', () => {
  it('is exactly the bytes asked for, after a paragraph break, and the same for the same run and turn', () => {
    for (const bytes of [0, 1, 2, 3, 4, 5, 100, 4097, 250_000]) {
      const text = carriedText(plan, 2, bytes);
      expect(Buffer.byteLength(text)).toBe(bytes);
      expect(carriedText(plan, 2, bytes)).toBe(text);
      if (bytes > 2) expect(text.startsWith('\n\n')).toBe(true);
    }
    expect(carriedText(plan, 3, 500)).not.toBe(carriedText(plan, 2, 500));
  });

  it("speaks the run's language mix and names its story", () => {
    const text = carriedText(plan, 2, 20_000);
    expect(text).toMatch(/[а-яё]/i);
    expect(text).toContain(plan.story.ticket);
    const ascii = planRun({
      seed: 3,
      runId: 'run-1',
      shape: { overrides: { turns: 4 }, text: { multibyteShare: 0, loneSurrogateShare: 0 } },
    });
    expect(carriedText(ascii, 2, 20_000)).toMatch(/^[\x20-\x7e\n]*$/);
  });
});

describe('carriedBytes', () => {
  it("is what the call's output would add to a serialized context, without its value's quotes", () => {
    for (const call of plan.turns.flatMap((t) => t.calls)) expect(carriedBytes(call)).toBe(toolContentWireBytes(call.tool, call.args) - 2);
  });
});
