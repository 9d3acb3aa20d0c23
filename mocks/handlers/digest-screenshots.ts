/**
 * What the compaction model must never be shown: a screenshot's bytes. The spec counts
 * screenshots in the digest and never sends them (the cheap model would pay for every byte and
 * could keep none of it verbatim). Every PNG begins and ends the same way, so its base64 does
 * too, whatever the image: the mock looks for either end in the whole request, so an image sent
 * as a part, a data URL left in a text, or a window cut from one are all found.
 */
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44]);
const PNG_IEND = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

/**
 * The signature and IHDR's start in base64, and the IEND chunk's three forms: where a PNG's
 * length leaves the last base64 group (its length mod 3), without the padding.
 */
const PNG_BASE64_ENDS = [
  PNG_HEAD.toString('base64'),
  ...[0, 1, 2].map((offset) => PNG_IEND.subarray(offset).toString('base64').replace(/=+$/, '')),
];

/** One line naming what the request carries of a screenshot, or null. */
export function screenshotBytesProblem(body: string): string | null {
  const found = PNG_BASE64_ENDS.find((end) => body.includes(end));
  if (found === undefined) return null;
  const which = found === PNG_BASE64_ENDS[0] ? 'beginning' : 'end';
  return `it carries a screenshot's bytes (the base64 of a PNG's ${which}, "${found}"): screenshots are counted in a digest, never sent`;
}
