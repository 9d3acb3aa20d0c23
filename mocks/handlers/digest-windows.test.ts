import { describe, expect, it } from 'vitest';
import { DIGEST_MESSAGE_HEAD_BYTES, DIGEST_MESSAGE_TAIL_BYTES } from '../../src/contract/limits.ts';
import { planRun } from '../synthetic/plan-run.ts';
import { digestWindowProblem, plannedTexts } from './digest-windows.ts';

/** `n` ASCII bytes that never repeat a 48-character run, as real prose and logs seldom do. */
function unique(n: number, tag: string): string {
  let out = '';
  for (let i = 0; out.length < n; i++) out += `${tag}${i} `;
  return out.slice(0, n);
}

// 1,000 ASCII bytes, then Cyrillic (2 bytes a letter) and an emoji (4 bytes, a surrogate pair) across byte 1,024.
const PROMPT = `${unique(1_000, 'p')}Привет, мир 🙂 и ещё ${unique(2_100, 'm')}ещё раз 🙂 конец ${unique(1_007, 'e')}`;
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

  it("takes a window beside the kernel's own separator when the text goes on the same way (a newline after the head)", () => {
    const first = unique(1_024, 'b');
    const last = unique(1_024, 't');
    const log = `${first}\nmiddle of the log\n${unique(400, 'm')}\n${last}`;
    const text = [{ name: 'the shell output of call c1', text: log }];
    expect(digestWindowProblem(`### [3] tool\n${first}\n[... 440 bytes omitted ...]\n${last}`, text)).toBeNull();
    expect(digestWindowProblem(`### [3] tool\n${first}\nmid\n[...]\n${last}`, text)).toMatch(/shows more than its head/);
  });

  it('refuses a head cut in UTF-16 units: 1,024 units of this prompt are more than 1,024 bytes', () => {
    expect(digestWindowProblem(digestOf(PROMPT.slice(0, 1_024), PROMPT.slice(-1_024)), texts)).toMatch(/shows more than its head/);
  });

  it('refuses a window that splits the surrogate pair at its edge', () => {
    const split = `${HEAD}${PROMPT.slice(HEAD.length, HEAD.length + 1)}`; // the pair's high half: a lone surrogate
    expect(digestWindowProblem(digestOf(split, TAIL), texts)).toMatch(/splits the character at the edge of its head/);
    // 1,022 bytes after an emoji: the tail's 1,024 bytes would start inside it, so the tail is the 1,022.
    const end = unique(1_022, 'q');
    const prompt = `${unique(3_000, 's')}🙂${end}`;
    const tailOf = [{ name: 'the system prompt', text: prompt }];
    const head = prompt.slice(0, 1_024);
    expect(digestWindowProblem(digestOf(head, end), tailOf)).toBeNull();
    expect(digestWindowProblem(digestOf(head, `\ude42${end}`), tailOf)).toMatch(/splits the character at the edge of its tail/);
  });

  it('compares a lone surrogate as U+FFFD, as a Go kernel decodes it', () => {
    const text = `${unique(500, 'f')}\udc8f.txt ${unique(2_000, 'g')}`;
    const lone = [{ name: 'the list_files output of call c2', text }];
    const b = Buffer.from(text); // the lone surrogate as EF BF BD, 3 bytes, as the kernel counts it
    const head = b.subarray(0, 1_024).toString();
    const tail = b.subarray(b.length - 1_024).toString();
    expect(digestWindowProblem(`${head}\n[...]\n${tail}`, lone)).toBeNull();
    expect(digestWindowProblem(`${text.slice(0, head.length)}\n[...]\n${tail}`, lone)).toBeNull();
  });

  it('measures only texts it can tell apart: longer than both windows, their ends shown once and no other text sharing them', () => {
    expect(digestWindowProblem('a digest of another shape altogether', texts)).toBeNull();
    expect(digestWindowProblem(digestOf(HEAD, 'a tail of another message'), texts)).toBeNull();
    const short = [{ name: 'the user request', text: `Fix [PAY-2231] in 🙂 билинг. ${unique(100, 'u')}` }];
    expect(digestWindowProblem('### [1] user\nFix [PAY-2231]', short)).toBeNull(); // within both windows: nothing to cut, nothing measured
    // Two logs that start alike: a digest showing one of them cut short is not measured, for either could be it.
    const twins = [
      { name: 'the shell output of call c3', text: `${unique(100, 'log')}${unique(3_000, 'x')}` },
      { name: 'the shell output of call c4', text: `${unique(100, 'log')}${unique(3_000, 'y')}` },
    ];
    expect(digestWindowProblem(`${twins[0]?.text.slice(0, 500)}\n[...]\n${twins[0]?.text.slice(-1_000)}`, twins)).toBeNull();
    expect(digestWindowProblem(`${twins[0]?.text.slice(0, 500)}\n[...]\n${twins[0]?.text.slice(-1_000)}`, twins.slice(0, 1))).toMatch(
      /does not show its head whole/,
    );
  });

  it("measures a screenshot's page text as it measures a tool's text output", () => {
    const shape = {
      screenshots: { share: 0 },
      overrides: { turns: 4, callsPerTurn: 1, screenshotEvery: 1, screenshotBytes: 2_000, screenshotPageTextBytes: 5_000 },
    };
    const plan = planRun({ seed: 3, runId: 'browser', shape });
    const texts = plannedTexts(plan, 4).filter((t) => t.name.startsWith('the screenshot output of call '));
    expect(texts).toHaveLength(3);
    const [first] = texts;
    if (!first) throw new Error('no screenshot text');
    expect(first.text).toMatch(/^Screenshot of .*\n\n# \w+ Admin\n/);
    const bytes = Buffer.from(first.text);
    expect(digestWindowProblem(`### [3] tool\n${first.text}`, [first])).toMatch(
      /the screenshot output of call call_\w+ \(\d+ bytes\): the digest shows more than its head/,
    );
    const head = bytes
      .subarray(0, 1_024)
      .toString()
      .replace(/\ufffd$/, '');
    expect(digestWindowProblem(`### [3] tool\n${head}\n[...]\n${first.text.slice(-300)}`, [first])).toMatch(/does not show its tail whole/);
  });
});
