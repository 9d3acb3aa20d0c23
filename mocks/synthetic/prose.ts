/**
 * The words of a synthetic run: the agent's system prompt, the user's request, what the agent
 * says on each turn and its final answer. Sizes follow the run's scale.
 */
import type { Rng } from './random.ts';
import type { RunStory } from './run-story.ts';
import { vocabulary } from './vocabulary.ts';

const RULES = [
  'Work only inside {workspace}; never touch files outside it.',
  'Read a file before you change it, and keep each change as small as the task allows.',
  'Run the relevant tests after every change and report their exact output.',
  'Quote paths, commit hashes, ticket and request ids exactly as they appear.',
  'Prefer the repository conventions over your own; look at neighbouring files first.',
  'When a command fails, read the whole error before you try again.',
  'Do not install new dependencies without saying why.',
  'Keep the public API of {service} stable unless the user asks otherwise.',
  'Take a screenshot when you change anything the user can see at {url}.',
  'Stop and ask when the request is ambiguous; otherwise finish the task end to end.',
  'Summarise what you changed, what you verified and what is left when you finish.',
  'Never print secrets; redact tokens and passwords from logs you quote.',
];

const TOOLS = [
  'shell(command): runs a command in {workspace} and returns its output.',
  'read_file(path): returns the content of a file of the repository.',
  'list_files(path): lists a directory with sizes and dates.',
  'diff(path, base): shows the changes of a file against a commit.',
  'screenshot(url): returns a PNG screenshot of a page of the running app.',
];

function fill(template: string, story: RunStory): string {
  return template.replaceAll('{workspace}', story.workspace).replaceAll('{service}', story.service).replaceAll('{url}', story.url);
}

export function systemPrompt(story: RunStory, bytes: number, rng: Rng): string {
  const words = vocabulary();
  const lines = [
    `You are a software engineering agent working on the ${story.repo} repository (${story.service}).`,
    '',
    '# Tools',
    ...TOOLS.map((t) => `- ${fill(t, story)}`),
    '',
    '# Rules',
  ];
  let size = lines.join('\n').length;
  for (let i = 0; size < bytes; i++) {
    const line =
      i < RULES.length
        ? `- ${fill(RULES[i] as string, story)}`
        : `- ${rng.pick(words.phrases)} Mind the ${rng.pick(words.adjectives)} ${rng.pick(words.nouns)} in ${rng.pick(story.files)}.`;
    lines.push(line);
    size += line.length + 1;
  }
  return cutAtLine(lines.join('\n'), bytes);
}

export function userRequest(story: RunStory, rng: Rng): string {
  const words = vocabulary();
  const symptom = rng.pick(['returns 500', 'times out', 'drops the discount', 'double-charges', 'shows a blank page']);
  return [
    `${story.ticket}: ${story.service} ${symptom} for order ${story.orderId} since commit ${story.commit.slice(0, 12)}.`,
    `The logs show request ${story.requestId} failing in ${story.files[0]}.`,
    `Please fix it, make ${story.testFile} pass and keep the ${rng.pick(words.nouns)} API unchanged.`,
  ].join(' ');
}

export interface CallSummary {
  tool: string;
  subject: string;
}

/** What the agent says before its tool calls of one turn. */
export function turnText(story: RunStory, calls: readonly CallSummary[], scale: number, rng: Rng): string {
  const words = vocabulary();
  const first = calls[0];
  const lead = first ? `${leadFor(first, rng)}` : 'Continuing.';
  const extra = Math.round(rng.int(0, 3) * Math.min(1, scale));
  const sentences = [lead];
  for (let i = 0; i < extra; i++) {
    sentences.push(
      rng.pick([
        `The ${rng.pick(words.nouns)} path in ${rng.pick(story.files)} looks ${rng.pick(words.adjectives)}.`,
        `That matches ${story.ticket}; the ${rng.pick(words.nouns)} check runs before the ${rng.pick(words.nouns)} is loaded.`,
        `I still need to confirm how ${story.service} handles ${story.orderId}.`,
        `${rng.pick(words.phrases)}`,
      ]),
    );
  }
  return sentences.join(' ');
}

function leadFor(call: CallSummary, rng: Rng): string {
  switch (call.tool) {
    case 'shell':
      return rng.pick([`Running \`${call.subject}\`.`, `Let me run \`${call.subject}\`.`]);
    case 'read_file':
      return rng.pick([`Reading ${call.subject}.`, `Let me look at ${call.subject}.`]);
    case 'list_files':
      return `Listing ${call.subject}.`;
    case 'diff':
      return `Checking the diff of ${call.subject}.`;
    default:
      return `Taking a screenshot of ${call.subject}.`;
  }
}

/** The last turn's answer, without tool calls. */
export function finalAnswer(story: RunStory, scale: number, rng: Rng): string {
  const words = vocabulary();
  const sentences = [
    `Done: ${story.ticket} is fixed in ${story.files[0]} and ${story.testFile} passes.`,
    `The regression came from commit ${story.commit.slice(0, 12)}, which moved the ${rng.pick(words.nouns)} lookup before validation.`,
    `Order ${story.orderId} now goes through; request ${story.requestId} no longer fails.`,
    `I verified it with ${rng.int(12, 400)} passing tests and a screenshot of ${story.url}.`,
    `Open: the ${rng.pick(words.adjectives)} ${rng.pick(words.nouns)} in ${rng.pick(story.files)} deserves a follow-up.`,
  ];
  return sentences.slice(0, Math.max(1, Math.round(sentences.length * Math.min(1, scale * 4)))).join(' ');
}

/** At most `bytes` characters, ending at a line break when one is close. */
function cutAtLine(text: string, bytes: number): string {
  if (text.length <= bytes) return text;
  const cut = text.lastIndexOf('\n', bytes);
  return cut > bytes * 0.8 ? text.slice(0, cut) : text.slice(0, bytes);
}
