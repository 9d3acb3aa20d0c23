import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { MIN_SCREENSHOT_BYTES, screenshotDimensions, screenshotPng } from './screenshot.ts';

/** Bytes of the chunks of a PNG by type. */
function chunkBytes(png: Buffer): Map<string, number> {
  const sizes = new Map<string, number>();
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    sizes.set(type, (sizes.get(type) ?? 0) + length + 12);
    at += length + 12;
  }
  return sizes;
}

describe('screenshotPng', () => {
  it.each([50_000, 300_000, 1_500_000])('encodes a decodable %i-byte PNG, within 5 percent and mostly image data', (bytes) => {
    const png = screenshotPng(bytes, bytes);
    expect(Math.abs(png.length - bytes) / bytes).toBeLessThanOrEqual(0.05);
    const image = PNG.sync.read(png);
    expect({ width: image.width, height: image.height }).toEqual(screenshotDimensions(bytes));
    // The comment chunk that lands the size exactly is padding: it must stay a sliver.
    expect((chunkBytes(png).get('IDAT') ?? 0) / png.length).toBeGreaterThan(0.98);
  });

  it('lands exactly on small and odd sizes too', () => {
    for (const bytes of [MIN_SCREENSHOT_BYTES, 999, 4_321, 77_777]) {
      const png = screenshotPng(7, bytes);
      expect(png.length).toBe(bytes);
      expect(PNG.sync.read(png).width).toBeGreaterThan(0);
    }
  });

  it('is the same for the same seed and differs for another', () => {
    expect(screenshotPng(1, 20_000).equals(Buffer.from(screenshotPng(1, 20_000)))).toBe(true);
    expect(screenshotPng(2, 20_000).equals(screenshotPng(1, 20_000))).toBe(false);
  });

  it('names the field when the size is too small', () => {
    expect(() => screenshotPng(1, 100)).toThrow(/^bytes: a screenshot needs an integer of at least 256/);
  });
});
