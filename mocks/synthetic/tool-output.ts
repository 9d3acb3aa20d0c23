/**
 * What the sandbox returns for a synthetic tool call, made from the call's arguments alone:
 * text for shell, read_file, list_files and diff; a caption (and the page's text, when the call
 * asks for it) plus a PNG data URL for screenshot.
 */
import { z } from 'zod';
import type { ContentPart, SyntheticToolArgs, ToolName } from '../../src/contract/messages.ts';
import { ASCII_ONLY, type TextMix } from './multibyte.ts';
import { describeIssue, type TextToolName } from './run-shape.ts';
import { MIN_SCREENSHOT_BYTES, screenshotCaption, screenshotPng } from './screenshot.ts';
import { type TextFormat, textOutput } from './text-output.ts';

/** The formats each text tool can produce; the first is its default. */
export const FORMATS_BY_TOOL: Record<TextToolName, readonly TextFormat[]> = {
  shell: ['log', 'test-report', 'stack-trace', 'json'],
  read_file: ['code', 'json', 'yaml'],
  list_files: ['listing'],
  diff: ['diff'],
};

export interface ToolArgs extends SyntheticToolArgs {
  format?: TextFormat;
  path?: string;
  command?: string;
  base?: string;
  url?: string;
  /** UTF-8 bytes of the page's visible text a screenshot's caption carries, as a browser tool reads it. */
  pageText?: number;
  /** The mix's shares (see TextMix); left out, the output is ASCII. */
  multibyte?: number;
  loneSurrogates?: number;
}

const detailsSchema = z.looseObject({
  seed: z.number().int().min(0).max(0xffffffff),
  bytes: z.number().int().positive(),
  path: z.string().optional(),
  command: z.string().optional(),
  base: z.string().optional(),
  url: z.string().optional(),
  pageText: z.number().int().positive().optional(),
  format: z.string().optional(),
  multibyte: z.number().min(0).max(1).optional(),
  loneSurrogates: z.number().min(0).max(1).optional(),
});

/** Validates a call's arguments for `tool`; throws one line naming the field. */
export function parseToolArgs(tool: ToolName, args: unknown): ToolArgs {
  const parsed = detailsSchema.safeParse(args);
  if (!parsed.success) throw new Error(describeIssue('arguments', parsed.error.issues[0]));
  const value = parsed.data as ToolArgs;
  if (tool === 'screenshot') {
    if (value.bytes < MIN_SCREENSHOT_BYTES) {
      throw new Error(`arguments.bytes: a screenshot needs at least ${MIN_SCREENSHOT_BYTES} bytes, got ${value.bytes}`);
    }
    return value;
  }
  const formats = FORMATS_BY_TOOL[tool];
  if (value.format !== undefined && !formats.includes(value.format)) {
    throw new Error(`arguments.format: ${tool} produces ${formats.join(', ')}, not ${value.format}`);
  }
  return value;
}

export function toolOutput(tool: ToolName, args: ToolArgs): string | ContentPart[] {
  if (tool === 'screenshot') {
    const png = screenshotPng(args.seed, args.bytes);
    return [
      { type: 'text', text: screenshotText(args) },
      {
        type: 'image_url',
        image_url: { url: `${PNG_DATA_URL_PREFIX}${png.toString('base64')}` },
      },
    ];
  }
  return textOutput({
    seed: args.seed,
    bytes: args.bytes,
    format: textFormat(tool, args.format),
    path: args.path,
    command: args.command,
    base: args.base,
    mix: textMix(args),
  });
}

const PAGE_TEXT_SEPARATOR = '\n\n';

/** The caption, then the page's visible text when the call asks for it: one text part beside the image. */
function screenshotText(args: ToolArgs): string {
  const caption = screenshotCaption(args.url ?? 'about:blank', args.bytes);
  if (args.pageText === undefined) return caption;
  const page = textOutput({ seed: args.seed, bytes: args.pageText, format: 'page', mix: textMix(args) });
  return `${caption}${PAGE_TEXT_SEPARATOR}${page}`;
}

/** The text mix a call's arguments ask for. */
export function textMix(args: Pick<ToolArgs, 'multibyte' | 'loneSurrogates'>): TextMix {
  return { multibyteShare: args.multibyte ?? 0, loneSurrogateShare: args.loneSurrogates ?? 0 };
}

/** The arguments that ask for a text mix: none for ASCII, so that ASCII runs keep their calls. */
export function textMixArgs(mix: TextMix): Pick<ToolArgs, 'multibyte' | 'loneSurrogates'> {
  const args: Pick<ToolArgs, 'multibyte' | 'loneSurrogates'> = {};
  if (mix.multibyteShare > 0) args.multibyte = mix.multibyteShare;
  if (mix.loneSurrogateShare > 0) args.loneSurrogates = mix.loneSurrogateShare;
  return args;
}

const PNG_DATA_URL_PREFIX = 'data:image/png;base64,';

/**
 * The UTF-8 bytes the output adds to a JSON-serialized context (the content value with its
 * quotes), without generating it: exact for screenshots, for text the escaping is an estimate
 * (see escapeRatio), off by well under 1% on a run.
 */
export function toolContentWireBytes(tool: ToolName, args: ToolArgs): number {
  if (tool === 'screenshot') {
    const shell = JSON.stringify([
      {
        type: 'text',
        text: `${screenshotCaption(args.url ?? 'about:blank', args.bytes)}${args.pageText === undefined ? '' : PAGE_TEXT_SEPARATOR}`,
      },
      { type: 'image_url', image_url: { url: '' } },
    ]);
    const page = args.pageText === undefined ? 0 : Math.round(args.pageText * (1 + escapeRatio('page', textMix(args))));
    return Buffer.byteLength(shell) + page + PNG_DATA_URL_PREFIX.length + 4 * Math.ceil(args.bytes / 3);
  }
  return 2 + Math.round(args.bytes * (1 + escapeRatio(textFormat(tool, args.format), textMix(args))));
}

/** The format a text tool produces: the one asked for, or the tool's default. */
export function textFormat(tool: TextToolName, format: TextFormat | undefined): TextFormat {
  return format ?? (FORMATS_BY_TOOL[tool][0] as TextFormat);
}

const ratios = new Map<string, number>();

/**
 * Extra UTF-8 bytes per byte that JSON escaping adds to a format (quotes, newlines; a lone
 * surrogate's 3 bytes become a 6-byte \uXXXX escape), measured once per format and mix.
 */
export function escapeRatio(format: TextFormat, mix: TextMix = ASCII_ONLY): number {
  const key = `${format}:${mix.multibyteShare}:${mix.loneSurrogateShare}`;
  let ratio = ratios.get(key);
  if (ratio === undefined) {
    const bytes = 64 * 1024;
    const sample = textOutput({ seed: 1, bytes, format, path: 'src/sample/sample-file.ts', mix });
    ratio = (Buffer.byteLength(JSON.stringify(sample)) - 2 - bytes) / bytes;
    ratios.set(key, ratio);
  }
  return ratio;
}
