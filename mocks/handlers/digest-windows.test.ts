import { describe, expect, it } from 'vitest';
import { DIGEST_MESSAGE_HEAD_BYTES, DIGEST_MESSAGE_TAIL_BYTES } from '../../src/contract/limits.ts';
import { digestWindowProblem } from './digest-windows.ts';

// 1,000 ASCII bytes, then Cyrillic (2 bytes a letter) and an emoji (4 bytes, a surrogate pair) across byte 1,024.
const START = `${'Start of the prompt. '.repeat(47)}${'x'.repeat(13)}`;
const PROMPT = `${START}Привет, мир 🙂 и ещё ${'middle '.repeat(300)}ещё раз 🙂 конец ${'end of the prompt. '.repeat(53)}`;
const bytes = Buffer.from(PROMPT);

/** The contract's windows, cut by hand: whole characters, the longest within the limits. */
const HEAD = PROMPT.slice(0, PROMPT.indexOf('🙂')); // 1,021 bytes: the 4-byte emoji after it would end at 1,025
const TAIL = bytes.subarray(bytes.length - DIGEST_MESSAGE_TAIL_BYTES).toString();
const texts = [{ name: 'the system prompt', text: PROMPT }];
const digestOf = (head: string, tail: string) =>
  `Digest of 2 messages\n\n### [0] system\n${head}\n[... omitted ...]\n${tail}\n\n### [1] user`;

describe('digestWindowProblem', () => {
  it("the windows as written here are the contract's", () => {
    expect(Buffer.byteLength(HEAD)).toBe(1_021);
    expect(Buffer.byteLength(`${HEAD}🙂`)).toBeGreaterThan(DIGEST_MESSAGE_HEAD_BYTES);
    expect(Buffer.byteLength(TAIL)).toBe(DIGEST_MESSAGE_TAIL_BYTES);
  });

  it('takes a digest that shows each window exactly', () => {
    expect(digestWindowProblem(digestOf(HEAD, TAIL), texts)).toBeNull();
  });

  it('refuses a head cut short, a head running past its window, and the same at the tail', () => {
    expect(digestWindowProblem(digestOf(HEAD.slice(0, -1), TAIL), texts)).toMatch(/does not show its head whole/);
    expect(digestWindowProblem(digestOf(PROMPT.slice(0, HEAD.length + 2), TAIL), texts)).toMatch(/shows more than its head/);
    expect(digestWindowProblem(digestOf(HEAD, TAIL.slice(1)), texts)).toMatch(/does not show its tail whole/);
    expect(digestWindowProblem(digestOf(HEAD, PROMPT.slice(-TAIL.length - 1)), texts)).toMatch(
      /the system prompt \(\d+ bytes\): the digest shows more than its tail/,
    );
  });

  it('refuses a head cut in UTF-16 units: 1,024 units of this prompt are more than 1,024 bytes', () => {
    expect(digestWindowProblem(digestOf(PROMPT.slice(0, 1_024), PROMPT.slice(-1_024)), texts)).toMatch(/shows more than its head/);
  });

  it('refuses a head that splits the surrogate pair at its edge', () => {
    const split = `${HEAD}${PROMPT.slice(HEAD.length, HEAD.length + 1)}`; // the pair's high half: a lone surrogate
    expect(digestWindowProblem(digestOf(split, TAIL), texts)).toMatch(/splits the character at the edge of its head/);
    // 1,022 bytes after an emoji: the tail's 1,024 bytes would start inside it, so the tail is the 1,022.
    const prompt = `${'Start of a prompt with nothing wide in it. '.repeat(70)}🙂${'b'.repeat(1_022)}`;
    const tailOf = [{ name: 'the system prompt', text: prompt }];
    const head = prompt.slice(0, 1_024);
    expect(digestWindowProblem(digestOf(head, 'b'.repeat(1_022)), tailOf)).toBeNull();
    expect(digestWindowProblem(digestOf(head, `\ude42${'b'.repeat(1_022)}`), tailOf)).toMatch(
      /splits the character at the edge of its tail/,
    );
  });

  it('wants a message within both windows whole', () => {
    const short = [{ name: 'the user request', text: 'Fix [PAY-2231] in 🙂 билинг, please' }];
    expect(digestWindowProblem('### [1] user\nFix [PAY-2231] in 🙂 билинг, please', short)).toBeNull();
    const start = 'Fix the billing export for every region we sell in. ';
    const end = 'Verify it against the March invoices 🙂 before you stop.';
    const longer = [{ name: 'the user request', text: `${start}Keep the CSV columns as they are. ${end}` }];
    expect(digestWindowProblem(`### [1] user\n${start}[...]${end}`, longer)).toMatch(
      /the user request \(\d+ bytes\) is not in the digest whole/,
    );
  });

  it('compares a lone surrogate as U+FFFD, as a Go kernel decodes it', () => {
    const lone = [{ name: 'the user request', text: `${'List the files in the shared folder, please: '.repeat(2)}\udc8f.txt` }];
    const asGo = `${'List the files in the shared folder, please: '.repeat(2)}\ufffd.txt`;
    expect(digestWindowProblem(asGo, lone)).toBeNull();
  });

  it('measures nothing in a digest that does not show both ends of the message (its own prompt, rewritten)', () => {
    expect(digestWindowProblem('a digest of another shape altogether', texts)).toBeNull();
    expect(digestWindowProblem(digestOf(HEAD, 'a tail of another message'), texts)).toBeNull();
    expect(DIGEST_MESSAGE_HEAD_BYTES + DIGEST_MESSAGE_TAIL_BYTES).toBeLessThan(bytes.length);
  });
});
