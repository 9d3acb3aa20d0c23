/**
 * Screenshots: real PNG images (they decode) of an exact encoded size. A flat UI frame (header,
 * sidebar, background) holds a block of seeded noise; noise does not compress, so the encoded
 * size follows the noise byte count, corrected after each encode. The last few bytes go into
 * a tEXt comment chunk so that the file lands on the requested size exactly (for files of
 * 50 KB and more the comment is well under 1% of them).
 */
import { constants, crc32, deflateSync } from 'node:zlib';
import { Rng } from './random.ts';

/** Below this a PNG cannot hold its own structure plus the padding chunk. */
export const MIN_SCREENSHOT_BYTES = 256;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const COMMENT_KEYWORD = 'Comment';
/** A tEXt chunk with an empty text: length, type, keyword, NUL, CRC. */
const COMMENT_OVERHEAD = 12 + COMMENT_KEYWORD.length + 1;
/** Share of the image the noise block may cover (inside header, sidebar and margins). */
const NOISE_AREA = 0.6;
/** Flat pixels compress at least this well, so they may weigh at most raw / FLAT_RATIO. */
const FLAT_RATIO = 40;
const SCREEN_SIZES: readonly (readonly [number, number])[] = [
  [320, 200],
  [640, 400],
  [800, 500],
  [1024, 640],
  [1280, 800],
  [1920, 1080],
  [2560, 1440],
  [3840, 2160],
  [5120, 2880],
  [7680, 4320],
];
const TYPICAL_PIXELS = 1280 * 800;

export interface Dimensions {
  width: number;
  height: number;
}

/**
 * The image size for an encoded size: a common screen size (closest to 1280x800) whose noise
 * block can hold the bytes and whose flat pixels stay negligible; a small 16:10 image below that.
 */
export function screenshotDimensions(bytes: number): Dimensions {
  const fits = SCREEN_SIZES.filter(([w, h]) => NOISE_AREA * 3 * w * h >= 1.2 * bytes && 3 * w * h <= FLAT_RATIO * bytes);
  if (fits.length > 0) {
    const distance = ([w, h]: readonly [number, number]) => Math.abs(Math.log((w * h) / TYPICAL_PIXELS));
    const [width, height] = fits.reduce((best, size) => (distance(size) < distance(best) ? size : best));
    return { width, height };
  }
  const pixels = Math.max(bytes, 160);
  const width = Math.ceil(Math.sqrt(pixels * 1.6));
  return { width, height: Math.ceil(pixels / width) };
}

export function screenshotCaption(url: string, bytes: number): string {
  const { width, height } = screenshotDimensions(bytes);
  return `Screenshot of ${url}: ${width}x${height} PNG, ${bytes} bytes`;
}

const cache = new Map<string, Buffer>();
let cachedBytes = 0;
const CACHE_LIMIT_BYTES = 64 * 1024 * 1024;

/** Forgets every cached screenshot: a benchmark's sides each pay the encoding, as a fresh process does. */
export function clearScreenshotCache(): void {
  cache.clear();
  cachedBytes = 0;
}

/** A PNG of exactly `bytes` bytes, the same for the same seed. Cached by (seed, bytes). */
export function screenshotPng(seed: number, bytes: number): Buffer {
  if (!Number.isInteger(bytes) || bytes < MIN_SCREENSHOT_BYTES) {
    throw new Error(`bytes: a screenshot needs an integer of at least ${MIN_SCREENSHOT_BYTES}, got ${bytes}`);
  }
  const key = `${seed}:${bytes}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const png = encodeScreenshot(seed, bytes);
  cache.set(key, png);
  cachedBytes += png.length;
  for (const [oldKey, old] of cache) {
    if (cachedBytes <= CACHE_LIMIT_BYTES) break;
    cache.delete(oldKey);
    cachedBytes -= old.length;
  }
  return png;
}

function encodeScreenshot(seed: number, bytes: number): Buffer {
  const rng = new Rng(seed);
  const frame = new Frame(screenshotDimensions(bytes), rng);
  // Aim a little below the target: the comment chunk can only add bytes.
  const goal = bytes - COMMENT_OVERHEAD - Math.max(8, Math.floor(bytes * 0.002));
  let noise = Math.min(frame.noiseCapacity, Math.max(0, goal - 100 - Math.floor(frame.rawBytes / 300)));
  let png = frame.encode(noise);
  for (let attempt = 0; attempt < 12 && (png.length > bytes - COMMENT_OVERHEAD || png.length < goal - 64); attempt++) {
    noise = Math.min(frame.noiseCapacity, Math.max(0, noise + (goal - png.length)));
    png = frame.encode(noise);
  }
  if (png.length > bytes - COMMENT_OVERHEAD) {
    throw new Error(`bytes: cannot encode a ${bytes}-byte screenshot (smallest frame is ${png.length} bytes)`);
  }
  return withComment(png, `longrun synthetic screenshot ${seed} `, bytes);
}

/**
 * The image as PNG scanlines with the Sub filter: flat areas become runs of zeros and noise
 * stays noise, so run-length deflate makes the encoded size grow smoothly and monotonically
 * with the noise (level-1 LZ matching on raw pixels jitters by hundreds of bytes).
 */
class Frame {
  readonly rawBytes: number;
  readonly noiseCapacity: number;
  private readonly flat: Buffer;
  private readonly raw: Buffer;
  private readonly rowBytes: number;
  private readonly noiseTop: number;
  private readonly noiseRowBytes: number;
  private noiseWritten = 0;

  constructor(
    private readonly size: Dimensions,
    rng: Rng,
  ) {
    const { width, height } = size;
    this.rowBytes = 1 + 3 * width;
    this.rawBytes = this.rowBytes * height;
    const header = Math.max(1, Math.round(height / 12));
    const sidebar = Math.min(width - 1, Math.max(1, Math.round(width / 6)));
    const margin = Math.max(0, Math.round(width / 80));
    this.noiseTop = Math.min(height - 1, header + margin);
    // The block reaches the right edge, so that flat pixels never follow noise within a row.
    this.noiseRowBytes = 3 * (width - Math.min(width - 1, sidebar + margin));
    this.noiseCapacity = this.noiseRowBytes * (height - this.noiseTop);
    const colour = () => [rng.int(0, 255), rng.int(0, 255), rng.int(0, 255)];
    const [background, bar, side] = [colour(), colour(), colour()] as number[][];
    this.flat = Buffer.alloc(this.rawBytes);
    for (let y = 0; y < height; y++) {
      const row = y * this.rowBytes;
      this.flat[row] = 1; // Sub: each byte is stored as its difference to the pixel on its left
      this.flat.set(y < header ? (bar as number[]) : (side as number[]), row + 1);
      if (y >= header) {
        const step = (background as number[]).map((c, i) => (c - ((side as number[])[i] as number) + 256) & 255);
        this.flat.set(step, row + 1 + 3 * sidebar);
      }
    }
    this.raw = Buffer.from(this.flat);
    this.rng = rng;
    this.noise = new Uint32Array(Math.ceil(this.noiseCapacity / 4) + 1);
  }

  private readonly rng: Rng;
  /** Noise words drawn so far: only as much noise as an encode asks for is ever drawn. */
  private readonly noise: Uint32Array;
  private noiseDrawn = 0;

  private noiseBytes(length: number): Buffer {
    const words = Math.ceil(length / 4);
    for (; this.noiseDrawn < words; this.noiseDrawn++) this.noise[this.noiseDrawn] = this.rng.next();
    return Buffer.from(this.noise.buffer, 0, length);
  }

  /** The PNG with the first `requestedNoise` bytes of the noise block painted in, row by row. */
  encode(requestedNoise: number): Buffer {
    const noiseBytes = requestedNoise - (requestedNoise % 3);
    const top = this.noiseTop * this.rowBytes;
    const previousRows = Math.ceil(this.noiseWritten / this.noiseRowBytes);
    this.flat.copy(this.raw, top, top, top + previousRows * this.rowBytes);
    const noise = this.noiseBytes(noiseBytes);
    for (let done = 0, y = this.noiseTop; done < noiseBytes; y++) {
      // A partial last row is painted flush right, like the full rows' ends.
      const length = Math.min(this.noiseRowBytes, noiseBytes - done);
      noise.copy(this.raw, (y + 1) * this.rowBytes - length, done, done + length);
      done += length;
    }
    this.noiseWritten = noiseBytes;

    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(this.size.width, 0);
    ihdr.writeUInt32BE(this.size.height, 4);
    ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, adaptive filters, no interlace
    return Buffer.concat([
      PNG_SIGNATURE,
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(this.raw, { level: 1, strategy: constants.Z_RLE })),
      chunk('IEND', Buffer.alloc(0)),
    ]);
  }
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

/** Inserts a tEXt comment before IEND, sized so that the file is exactly `bytes` long. */
function withComment(png: Buffer, prefix: string, bytes: number): Buffer {
  const textLength = bytes - png.length - COMMENT_OVERHEAD;
  const text = (prefix + '.'.repeat(Math.max(0, textLength - prefix.length))).slice(0, textLength);
  const comment = chunk('tEXt', Buffer.from(`${COMMENT_KEYWORD}\u0000${text}`, 'latin1'));
  const iendAt = png.length - 12;
  return Buffer.concat([png.subarray(0, iendAt), comment, png.subarray(iendAt)]);
}
