import { describe, expect, it } from 'vitest';
import { screenshotPng } from '../synthetic/screenshot.ts';
import { TEXT_FORMATS, textOutput } from '../synthetic/text-output.ts';
import { screenshotBytesProblem } from './digest-screenshots.ts';

describe('screenshotBytesProblem', () => {
  it("finds a screenshot's data URL, its head window and its tail window, whatever its length mod 3", () => {
    for (const bytes of [3_000, 3_001, 3_002]) {
      const base64 = screenshotPng(bytes, bytes).toString('base64');
      const url = `data:image/png;base64,${base64}`;
      expect(screenshotBytesProblem(JSON.stringify({ messages: [{ role: 'user', content: url }] }))).toMatch(
        /^it carries a screenshot's bytes \(the base64 of a PNG's beginning, "iVBORw0KGgoAAAANSUhE"\)/,
      );
      expect(screenshotBytesProblem(`### [3] tool\n${url.slice(0, 1_024)}\n[... omitted ...]`)).toMatch(/PNG's beginning/);
      expect(screenshotBytesProblem(`[... omitted ...]\n${base64.slice(-1_024)}`)).toMatch(/PNG's end/);
    }
  });

  it('passes a digest that counts screenshots, and the texts a run writes', () => {
    expect(screenshotBytesProblem('Digest of 12 messages; 3 screenshots counted, not included.\n(1 screenshot, not included)')).toBeNull();
    const mix = { multibyteShare: 0.4, loneSurrogateShare: 0.01 };
    for (const format of TEXT_FORMATS) expect(screenshotBytesProblem(textOutput({ seed: 5, bytes: 200_000, format, mix }))).toBeNull();
  });
});
