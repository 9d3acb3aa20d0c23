/**
 * The base64 text of a large bytes field (a payload's `data`) as the file holds it, never made
 * into a JavaScript string: most payloads are only measured, and the size of base64 is
 * arithmetic on its length. Decoded on demand, for the few payloads the checks read.
 */

/**
 * A text and what it decoded to; `clean` when it is whole 4-character groups of the alphabet
 * (padding only at its end): then a character Node's decoder skipped would have made the bytes fewer.
 */
export interface Decoded {
  text: Base64Text;
  bytes: Buffer;
  clean: boolean;
}

/** Bytes compared at a time when looking for where two texts part. */
const BLOCK = 1 << 16;
/** A run of equal groups shorter than this is decoded afresh (not worth a piece of its own). */
const MIN_SHARED_CHARS = 256;
/** Groups tried past a difference for the texts to agree again, and how many differences are passed. */
const REALIGN_GROUPS = 16;
const MAX_DIFFERENCES = 8;

/** How many characters a and b have in common from `from` on, up to `limit`. */
function sameFrom(a: Buffer, b: Buffer, from: number, limit: number): number {
  let at = from;
  while (at + BLOCK <= limit && a.compare(b, at, at + BLOCK, at, at + BLOCK) === 0) at += BLOCK;
  // Narrow the block that differs by halves.
  for (let size = Math.min(BLOCK, limit - at); size > 0; size = Math.min(size >> 1, limit - at)) {
    if (a.compare(b, at, at + size, at, at + size) === 0) at += size;
    if (size === 1) break;
  }
  return at - from;
}

export class Base64Text {
  /** `ascii`: the base64 characters, ASCII only (the event stream checks). */
  constructor(readonly ascii: Buffer) {}

  /** What `Buffer.byteLength(text, 'base64')` returns for the same text: padding off, 3 bytes per 4 characters. */
  byteLength(): number {
    let length = this.ascii.length;
    if (length > 0 && this.ascii[length - 1] === 0x3d) length--;
    if (length > 1 && this.ascii[length - 1] === 0x3d) length--;
    return (length * 3) >>> 2;
  }

  decode(): Buffer {
    return Buffer.from(this.ascii.toString('latin1'), 'base64');
  }

  /**
   * The same bytes as decode(), written into `into` (at least byteLength() long; not the
   * earlier's memory), reusing an earlier clean text's decoding wherever both texts hold the
   * same 4-character groups at the same place (a run's requests re-send their dialog: mostly the
   * same text, a turn number apart near its start). Clean base64 decodes group by group, so
   * those groups' bytes are the earlier ones; the groups between are decoded afresh.
   */
  decodeAfter(earlier: Decoded | undefined, into: Buffer): Decoded {
    const length = this.byteLength();
    const target = into.subarray(0, length);
    if (this.ascii.length % 4 === 0 && (earlier?.clean ? this.reuse(earlier, target) : writeGroups(this.ascii, target, 0) === length)) {
      return { text: this, bytes: target, clean: true };
    }
    // Not clean base64: Node's decoder skips what is not of the alphabet, and gives fewer bytes.
    return { text: this, bytes: this.decode(), clean: false };
  }

  /** Writes the decoding into target, the earlier's bytes where the texts agree; false when a fresh run is not clean base64. */
  private reuse(earlier: Decoded, target: Buffer): boolean {
    const a = this.ascii;
    const b = earlier.text.ascii;
    // The earlier's last group may hold padding, which ends a text: only the groups before it are shared.
    const limit = Math.min(a.length, b[b.length - 1] === 0x3d ? b.length - 4 : b.length);
    let fresh = 0;
    let at = 0;
    for (let differences = 0, tries = 0; at < limit && differences <= MAX_DIFFERENCES && tries <= REALIGN_GROUPS; ) {
      const same = sameFrom(a, b, at, limit) & ~3;
      if (same < MIN_SHARED_CHARS && at + same < limit) {
        at += same + 4;
        tries++;
        continue;
      }
      if (fresh < at && writeGroups(a.subarray(fresh, at), target, (fresh / 4) * 3) !== ((at - fresh) / 4) * 3) return false;
      earlier.bytes.copy(target, (at / 4) * 3, (at / 4) * 3, ((at + same) / 4) * 3);
      at += same;
      fresh = at;
      differences++;
      tries = 0;
    }
    const rest = a.subarray(fresh);
    return writeGroups(rest, target, (fresh / 4) * 3) === new Base64Text(rest).byteLength();
  }
}

/** Decodes base64 characters into target at offset; the number of bytes written. */
function writeGroups(ascii: Buffer, target: Buffer, offset: number): number {
  return ascii.length === 0 ? 0 : target.write(ascii.toString('latin1'), offset, 'base64');
}
