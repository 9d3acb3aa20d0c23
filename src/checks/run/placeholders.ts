/**
 * What an elision leaves in place of an item. The contract's form is a text part (or string
 * content) `[elided: <what>, <n> bytes]`: what was there (`screenshot`, `tool output`,
 * `assistant text`) and its UTF-8 bytes, so the model knows what it no longer sees. A text in
 * that form must tell the truth; a kernel with a form of its own may write any other text, but
 * not an empty one, nor a part that is not a text, and it replaces each item with a text of its
 * own: a message keeps its number of parts. Measured by the checks on the parts of the dialog at
 * the boundary, never through the kernel's code.
 */
import type { MessageSummary, PartSummary } from '../history/model.ts';
import type { ExpectedMessage } from './dialog.ts';

const PREFIX = '[elided: ';

/** Whether a text is in the contract's placeholder form's opening (what an earlier elision left). */
export const isPlaceholderText = (text: string | undefined): boolean => text?.startsWith(PREFIX) === true;
const FORM = /^\[elided: ([^,\]]*), (\d{1,3}(?:,\d{3})*|\d+) bytes\]$/;

/** What the contract's form calls the item a part held. */
function whatWasThere(part: PartSummary, role: string): string | undefined {
  if (part.kind === 'screenshot') return 'screenshot';
  if (part.kind === 'text') return role === 'assistant' ? 'assistant text' : 'tool output';
  return undefined;
}

const withArticle = (what: string) => `${/^[aeiou]/.test(what) ? 'an' : 'a'} ${what}`;

/** The same part, as far as its summary tells (a long text is known by its size alone). */
function samePart(sent: PartSummary, held: PartSummary): boolean {
  return sent.kind === held.kind && sent.bytes === held.bytes && sent.text === held.text;
}

/** What is wrong with the part left where `held` was; null when nothing is. */
function replacementProblem(sent: PartSummary, held: PartSummary, role: string): string | null {
  const named = whatWasThere(held, role);
  const what = named ?? 'part';
  const size = held.bytes === undefined ? '' : ` of ${held.bytes.toLocaleString('en-US')} bytes`;
  if (sent.kind !== 'text') return `${withArticle(what)}${size} replaced by a part that is not a text`;
  if (sent.text === undefined) return null; // a long text: the kernel's own form, not a placeholder
  if (sent.text.trim() === '') return `${withArticle(what)}${size} replaced by an empty text`;
  if (!sent.text.startsWith(PREFIX)) return null;
  const form = FORM.exec(sent.text);
  if (!form) return `${withArticle(what)}${size} replaced by "${sent.text}", not of the form [elided: <what>, <n> bytes]`;
  const [, said, count] = form as unknown as [string, string, string];
  if (named !== undefined && said !== named) return `"${sent.text}" says ${said || 'nothing'}; it replaced ${withArticle(named)}`;
  const claimed = Number(count.replaceAll(',', ''));
  if (held.bytes !== undefined && claimed !== held.bytes) {
    return `"${sent.text}" says ${claimed.toLocaleString('en-US')} bytes; the ${what} was ${held.bytes.toLocaleString('en-US')} bytes`;
  }
  return null;
}

/**
 * The placeholders of a request sent at a turn with no compaction, or of a compaction's input,
 * against the dialog at the boundary: each part of a message that differs from the dialog's in
 * the same place. Messages that do not line up are other rules' business.
 */
export function placeholderProblems(sent: readonly MessageSummary[], dialog: readonly ExpectedMessage[]): string[] {
  if (sent.length !== dialog.length) return [];
  const problems: string[] = [];
  sent.forEach((message, index) => {
    const held = dialog[index] as ExpectedMessage;
    if ('unknownContent' in held || message.hash === held.hash || message.role !== held.role) return;
    if (!message.parts || !held.parts) return;
    const who = message.toolCallId ? `${message.role} ${message.toolCallId}` : message.role;
    if (message.parts.length !== held.parts.length) {
      problems.push(
        `message ${index} (${who}) has ${message.parts.length} parts where the dialog's has ${held.parts.length}: an elision replaces each item with a text, it removes none`,
      );
      return;
    }
    message.parts.forEach((part, at) => {
      const before = held.parts?.[at] as PartSummary;
      if (samePart(part, before)) return;
      const problem = replacementProblem(part, before, message.role);
      if (problem) problems.push(`message ${index} (${who}), part ${at}: ${problem}`);
    });
  });
  return problems;
}
