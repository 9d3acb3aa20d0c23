/**
 * For the tests of what the checks read from a payload's bytes against what decoding it whole
 * gives: payloads of JSON exactly as written, and the whole read's answer.
 */
import { Base64Text } from '../history/base64-text.ts';

const JSON_PLAIN = Buffer.from('json/plain').toString('base64');

/**
 * The Payloads list of one json/plain payload of these JSON bytes as written (spacing, escapes and
 * all), its data as base64 text or, `asFile`, as a history file's stream gives it (a Base64Text).
 */
export function jsonTextPayloads(json: string | Buffer, asFile = false): unknown[] {
  const data = Buffer.from(json).toString('base64');
  return [{ metadata: { encoding: JSON_PLAIN }, data: asFile ? new Base64Text(Buffer.from(data)) : data }];
}

/** What `read` returns, or the message of what it throws: the reason the whole read refuses a payload. */
export function readOrReason(read: () => unknown): unknown {
  try {
    return read();
  } catch (error) {
    return (error as Error).message;
  }
}
