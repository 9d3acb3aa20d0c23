/**
 * The words of a synthetic run: the agent's system prompt, the user's request, what the agent
 * says on each turn and its final answer. Sizes follow the run's scale and count UTF-8 bytes;
 * at the mix's share a rule or sentence is in Russian (the team's language), with the same
 * identifiers.
 */
import { fitUtf8, Multibyte, type TextMix, utf8Prefix } from './multibyte.ts';
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

const RULES_RU = [
  'Отвечай пользователю по-русски; пути, команды и идентификаторы оставляй как есть.',
  'Работай только внутри {workspace}; файлы снаружи не трогай.',
  'Перед изменением файла прочитай его целиком.',
  'После каждого изменения запускай тесты и приводи их вывод дословно.',
  'Публичный API {service} не меняй без явной просьбы.',
  'Если запрос неоднозначен, уточни; иначе доводи задачу до конца.',
  'Не печатай секреты: токены и пароли в логах заменяй на ***.',
  'Комментарии в коде пиши по-русски, как принято в репозитории.',
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

export function systemPrompt(story: RunStory, bytes: number, rng: Rng, mix: TextMix): string {
  const words = vocabulary();
  const multibyte = new Multibyte(rng, mix);
  const lines = [
    `You are a software engineering agent working on the ${story.repo} repository (${story.service}).`,
    '',
    '# Tools',
    ...TOOLS.map((t) => `- ${fill(t, story)}`),
    '',
    '# Rules',
  ];
  let size = Buffer.byteLength(lines.join('\n'));
  for (let i = 0; size < bytes; i++) {
    let line: string;
    if (multibyte.line()) line = `- ${fill(rng.pick(RULES_RU), story)}`;
    else if (i < RULES.length) line = `- ${fill(RULES[i] as string, story)}`;
    else line = `- ${rng.pick(words.phrases)} Mind the ${rng.pick(words.adjectives)} ${rng.pick(words.nouns)} in ${rng.pick(story.files)}.`;
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  return cutAtLine(lines.join('\n'), bytes);
}

const SYMPTOMS = ['returns 500', 'times out', 'drops the discount', 'double-charges', 'shows a blank page'];
const SYMPTOMS_RU = ['отдаёт 500', 'падает по таймауту', 'теряет скидку', 'списывает оплату дважды', 'показывает пустую страницу'];

export function userRequest(story: RunStory, rng: Rng, mix: TextMix): string {
  const words = vocabulary();
  const multibyte = new Multibyte(rng, mix);
  const symptom = rng.int(0, SYMPTOMS.length - 1);
  const commit = story.commit.slice(0, 12);
  return [
    multibyte.line()
      ? `${story.ticket}: ${story.service} ${SYMPTOMS_RU[symptom]} для заказа ${story.orderId} после коммита ${commit}.`
      : `${story.ticket}: ${story.service} ${SYMPTOMS[symptom]} for order ${story.orderId} since commit ${commit}.`,
    multibyte.line()
      ? `В логах запрос ${story.requestId} падает в ${story.files[0]}.`
      : `The logs show request ${story.requestId} failing in ${story.files[0]}.`,
    multibyte.line()
      ? `Пожалуйста, исправь это, добейся, чтобы ${story.testFile} проходил, и не меняй API ${rng.pick(words.nouns)}.`
      : `Please fix it, make ${story.testFile} pass and keep the ${rng.pick(words.nouns)} API unchanged.`,
  ].join(' ');
}

export interface CallSummary {
  tool: string;
  subject: string;
}

/**
 * What the agent says before its tool calls of one turn: a lead and up to three sentences, or,
 * given `bytes`, as many sentences as reach exactly that many UTF-8 bytes (an agent that
 * reasons at length before it acts).
 */
export function turnText(story: RunStory, calls: readonly CallSummary[], scale: number, rng: Rng, mix: TextMix, bytes?: number): string {
  const words = vocabulary();
  const multibyte = new Multibyte(rng, mix);
  const first = calls[0];
  const lead = first ? (multibyte.line() ? leadInRussian(first, multibyte) : leadFor(first, rng)) : 'Continuing.';
  const extra = Math.round(rng.int(0, 3) * Math.min(1, scale));
  const noun = () => rng.pick(words.nouns);
  const sentence = () =>
    multibyte.line()
      ? rng.pick([
          `Путь ${noun()} в ${rng.pick(story.files)} выглядит подозрительно.`,
          `Это совпадает с ${story.ticket}: проверка ${noun()} выполняется раньше, чем загружается ${noun()}.`,
          `Ещё нужно понять, как ${story.service} обрабатывает ${story.orderId}.`,
          `Тест всё ещё падает, смотрю дальше ${multibyte.emoji()}`,
        ])
      : rng.pick([
          `The ${noun()} path in ${rng.pick(story.files)} looks ${rng.pick(words.adjectives)}.`,
          `That matches ${story.ticket}; the ${noun()} check runs before the ${noun()} is loaded.`,
          `I still need to confirm how ${story.service} handles ${story.orderId}.`,
          `${rng.pick(words.phrases)}`,
        ]);
  const sentences = [lead];
  for (let i = 0; i < extra; i++) sentences.push(sentence());
  const text = sentences.join(' ');
  if (bytes === undefined) return text;
  // Counted as it grows: measuring the whole text each time is quadratic in a long narration.
  let size = Buffer.byteLength(text);
  const more: string[] = [text];
  while (size < bytes) {
    const next = ` ${sentence()}`;
    more.push(next);
    size += Buffer.byteLength(next);
  }
  return fitUtf8(more.join(''), bytes);
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

function leadInRussian(call: CallSummary, multibyte: Multibyte): string {
  switch (call.tool) {
    case 'shell':
      return `Запускаю \`${call.subject}\`.`;
    case 'read_file':
      return `Читаю ${call.subject}.`;
    case 'list_files':
      return `Смотрю, что лежит в ${call.subject}.`;
    case 'diff':
      return `Проверяю изменения в ${call.subject}.`;
    default:
      return `Делаю скриншот ${call.subject} ${multibyte.emoji()}`;
  }
}

/** The last turn's answer, without tool calls. */
export function finalAnswer(story: RunStory, scale: number, rng: Rng, mix: TextMix): string {
  const words = vocabulary();
  const multibyte = new Multibyte(rng, mix);
  const commit = story.commit.slice(0, 12);
  const sentences = [
    multibyte.line()
      ? `Готово: ${story.ticket} исправлен в ${story.files[0]}, ${story.testFile} проходит ✅`
      : `Done: ${story.ticket} is fixed in ${story.files[0]} and ${story.testFile} passes.`,
    multibyte.line()
      ? `Регрессию внёс коммит ${commit}: поиск ${rng.pick(words.nouns)} стоял до валидации.`
      : `The regression came from commit ${commit}, which moved the ${rng.pick(words.nouns)} lookup before validation.`,
    multibyte.line()
      ? `Заказ ${story.orderId} теперь проходит; запрос ${story.requestId} больше не падает.`
      : `Order ${story.orderId} now goes through; request ${story.requestId} no longer fails.`,
    multibyte.line()
      ? `Проверено: проходят ${rng.int(12, 400)} тестов, скриншот ${story.url} приложен.`
      : `I verified it with ${rng.int(12, 400)} passing tests and a screenshot of ${story.url}.`,
    multibyte.line()
      ? `Открытый вопрос: ${rng.pick(words.nouns)} в ${rng.pick(story.files)} стоит разобрать отдельно.`
      : `Open: the ${rng.pick(words.adjectives)} ${rng.pick(words.nouns)} in ${rng.pick(story.files)} deserves a follow-up.`,
  ];
  return sentences.slice(0, Math.max(1, Math.round(sentences.length * Math.min(1, scale * 4)))).join(' ');
}

/** At most `bytes` UTF-8 bytes, ending at a line break when one is close. */
function cutAtLine(text: string, bytes: number): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  const head = utf8Prefix(text, bytes);
  const cut = text.lastIndexOf('\n', head.length);
  return cut >= 0 && Buffer.byteLength(text.slice(0, cut)) > bytes * 0.8 ? text.slice(0, cut) : head;
}
