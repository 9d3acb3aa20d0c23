/**
 * Text tool outputs that look like the real thing (logs, JSON, diffs, stack traces, file
 * listings, source files, test reports, a web page's visible text), exactly `bytes` UTF-8
 * bytes long, seeded by their arguments alone. At the mix's share, lines carry non-ASCII text
 * (see multibyte.ts).
 */
import { ASCII_ONLY, fitUtf8, Multibyte, type TextMix } from './multibyte.ts';
import { Rng } from './random.ts';
import { type Vocabulary, vocabulary } from './vocabulary.ts';

export const TEXT_FORMATS = ['log', 'test-report', 'stack-trace', 'json', 'code', 'yaml', 'listing', 'diff', 'page'] as const;
export type TextFormat = (typeof TEXT_FORMATS)[number];

export interface TextDetails {
  seed: number;
  bytes: number;
  format: TextFormat;
  /** The file or directory the output is about. */
  path?: string;
  /** The shell command that produced the output. */
  command?: string;
  /** The commit a diff compares against. */
  base?: string;
  /** Non-ASCII content; ASCII only when left out. */
  mix?: TextMix;
}

/** Synthetic clock: November 2026, where the production measurements come from. */
const EPOCH_MS = Date.UTC(2026, 10, 1);

interface Context {
  rng: Rng;
  words: Vocabulary;
  multibyte: Multibyte;
  path: string;
  clock: number;
}

export function textOutput(details: TextDetails): string {
  const rng = new Rng(details.seed);
  const ctx: Context = {
    rng,
    words: vocabulary(),
    multibyte: new Multibyte(rng, details.mix ?? ASCII_ONLY),
    path: details.path ?? 'src/index.ts',
    clock: EPOCH_MS + rng.int(0, 29 * 86_400_000),
  };
  if (details.format === 'json') return jsonDocument(ctx, details.bytes);
  const header = details.command ? `$ ${details.command}\n` : '';
  const next = LINES[details.format](ctx, details);
  return fillTo(details.bytes, header, next);
}

/**
 * Appends generated lines until `bytes`, then cuts there (real outputs get cut too), never
 * inside a character: a cut that would split one pads with spaces instead.
 */
function fillTo(bytes: number, header: string, next: () => string): string {
  if (Buffer.byteLength(header) >= bytes) return fitUtf8(header, bytes);
  const parts = [header];
  let size = Buffer.byteLength(header);
  for (;;) {
    const line = next();
    const lineBytes = Buffer.byteLength(line);
    if (size + lineBytes >= bytes) {
      parts.push(fitUtf8(line, bytes - size));
      return parts.join('');
    }
    parts.push(line);
    size += lineBytes;
  }
}

const LINES: Record<Exclude<TextFormat, 'json'>, (ctx: Context, details: TextDetails) => () => string> = {
  log: (ctx) => () => logLine(ctx),
  'test-report': testReport,
  'stack-trace': stackTrace,
  code: (ctx) => {
    const lines = codeLines(ctx);
    return () => `${lines()}\n`;
  },
  yaml: yamlBlocks,
  listing: listing,
  diff: diffHunks,
  page: pageText,
};

function pascal(word: string): string {
  return word
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

function camel(word: string): string {
  const p = pascal(word);
  return p.charAt(0).toLowerCase() + p.slice(1);
}

function timestamp(ctx: Context): string {
  ctx.clock += ctx.rng.int(1, 2_500);
  return new Date(ctx.clock).toISOString();
}

function sourcePathIn(ctx: Context): string {
  const { rng, words } = ctx;
  return rng.chance(0.4) ? ctx.path : `src/${rng.pick(words.nouns)}/${rng.pick(words.nouns)}-${rng.pick(words.nouns)}.ts`;
}

const LEVELS = ['INFO ', 'INFO ', 'INFO ', 'INFO ', 'DEBUG', 'DEBUG', 'WARN ', 'ERROR'];
const METHODS = ['GET', 'GET', 'POST', 'PUT', 'DELETE'];
const STATUSES = [200, 200, 200, 201, 204, 304, 400, 404, 409, 500, 503];

function logLine(ctx: Context): string {
  const { rng, words, multibyte } = ctx;
  const service = `${rng.pick(words.nouns)}-service`;
  const id = `req_${rng.alnum(16)}`;
  let message: string;
  if (multibyte.loneSurrogate()) message = multibyte.cutLogMessage();
  else if (multibyte.line()) message = multibyte.logMessage();
  else message = asciiLogMessage(ctx);
  return `${timestamp(ctx)} ${rng.pick(LEVELS)} [${service}] ${id} ${message}\n`;
}

function asciiLogMessage(ctx: Context): string {
  const { rng, words } = ctx;
  switch (rng.int(0, 5)) {
    case 0:
      return `${rng.pick(METHODS)} /api/v1/${rng.pick(words.nouns)}s/${rng.int(1000, 99999)} ${rng.pick(STATUSES)} ${rng.int(2, 2400)}ms`;
    case 1:
      return `cache miss key=${rng.pick(words.nouns)}:${rng.hex(16)} ttl=${rng.int(30, 3600)}s`;
    case 2:
      return `job ${rng.hex(8)}-${rng.hex(4)}-${rng.hex(4)}-${rng.hex(12)} done: ${rng.pick(words.verbs)} ${rng.int(1, 5000)} ${rng.pick(words.nouns)}s in ${rng.int(5, 90000)}ms`;
    case 3:
      return `retrying connection to db-${rng.int(1, 6)}.internal:5432 (attempt ${rng.int(1, 5)}/5): ${rng.pick(words.phrases)}`;
    case 4:
      return `wrote ${sourcePathIn(ctx)} (${rng.int(120, 480000)} bytes, sha256 ${rng.hex(64)})`;
    default:
      return `order ord_${rng.alnum(12)} updated by ${rng.pick(words.people)} amount=${rng.int(1, 99999) / 100}`;
  }
}

function testReport(ctx: Context): () => string {
  const { rng, words, multibyte } = ctx;
  let index = 0;
  return () => {
    index++;
    const file = `tests/${rng.pick(words.nouns)}/test_${rng.pick(words.nouns).replaceAll('-', '_')}.py`;
    const name = `test_${rng.pick(words.verbs)}_${rng.pick(words.nouns)}`.replaceAll('-', '_');
    // A non-ASCII line is a failure whose assertion compares the texts a user would read.
    const localized = multibyte.line();
    const passed = !localized && rng.chance(0.9);
    const line = `${file}::${name} ${passed ? 'PASSED' : 'FAILED'} [${String(index % 100).padStart(3)}%]\n`;
    if (passed) return line;
    if (localized) return `${line}    E   AssertionError: assert '${multibyte.userMessage()}' == '${multibyte.userMessage()}'\n`;
    return `${line}    E   AssertionError: assert ${rng.pick(STATUSES)} == ${rng.pick(STATUSES)}\n    E    +  where response = <Response ${rng.hex(12)} for ${ctx.path}:${rng.int(10, 900)}>\n`;
  };
}

function stackTrace(ctx: Context): () => string {
  const { rng, words, multibyte } = ctx;
  return () => {
    const noun = rng.pick(words.nouns);
    const lines = [
      `${timestamp(ctx)} ERROR request req_${rng.alnum(16)} failed after ${rng.int(5, 30000)}ms`,
      multibyte.line()
        ? `NotFoundError: ${multibyte.userMessage()} (${camel(noun)}Id)`
        : `TypeError: Cannot read properties of undefined (reading '${camel(noun)}Id')`,
    ];
    const frames = rng.int(4, 12);
    for (let i = 0; i < frames; i++) {
      const fn = `${pascal(rng.pick(words.nouns))}Service.${camel(rng.pick(words.verbs))}${pascal(rng.pick(words.nouns))}`;
      lines.push(`    at ${fn} (/workspace/${sourcePathIn(ctx)}:${rng.int(1, 900)}:${rng.int(1, 80)})`);
    }
    lines.push('    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)');
    if (rng.chance(0.3)) lines.push(`Caused by: Error: ${rng.pick(words.phrases)} [code ${rng.hex(8)}]`);
    return `${lines.join('\n')}\n`;
  };
}

function codeLines(ctx: Context): () => string {
  const { rng, words, multibyte } = ctx;
  const queue: string[] = [`// ${ctx.path}`];
  return () => {
    if (queue.length === 0) {
      const entity = rng.pick(words.nouns);
      const verb = rng.pick(words.verbs);
      if (rng.chance(0.2)) {
        queue.push(
          `import { ${pascal(entity)}${pascal(rng.pick(words.nouns))} } from '../${rng.pick(words.nouns)}/${entity}-${rng.pick(words.nouns)}.ts';`,
        );
      } else {
        queue.push(
          '',
          `/** ${multibyte.line() ? multibyte.comment() : rng.pick(words.phrases)} */`,
          `export async function ${camel(verb)}${pascal(entity)}(${camel(entity)}Id: string): Promise<${pascal(entity)}> {`,
          `  const ${camel(entity)} = await repository.find${pascal(entity)}(${camel(entity)}Id);`,
          `  if (!${camel(entity)}) throw new NotFoundError(\`${multibyte.line() ? `${multibyte.userMessage()}: \${${camel(entity)}Id}` : `${entity} \${${camel(entity)}Id} not found`}\`);`,
          `  logger.info({ id: ${camel(entity)}.id, sha: '${rng.hex(12)}' }, '${verb} ${entity}');`,
          `  const limit = ${rng.int(2, 5000)};`,
          `  return ${camel(rng.pick(words.verbs))}(${camel(entity)}, { limit, retries: ${rng.int(0, 5)} });`,
          '}',
        );
      }
    }
    return queue.shift() as string;
  };
}

function yamlBlocks(ctx: Context): () => string {
  const { rng, words, multibyte } = ctx;
  let first = true;
  return () => {
    const name = rng.pick(words.nouns);
    const head = first ? `# ${ctx.path}\nservices:\n` : '';
    first = false;
    const comment = multibyte.line() ? `  # ${multibyte.comment()}\n` : '';
    return `${head}${comment}  ${name}:
    image: registry.${rng.pick(words.domains)}/${rng.pick(words.products)}:${rng.hex(12)}
    replicas: ${rng.int(1, 12)}
    environment:
      DATABASE_URL: postgres://${name}:\${DB_PASSWORD}@db-${rng.int(1, 6)}.internal:5432/${name.replaceAll('-', '_')}
      ${name.toUpperCase().replaceAll('-', '_')}_TIMEOUT_MS: '${rng.int(100, 30000)}'
    ports:
      - '${rng.int(3000, 9999)}:${rng.int(3000, 9999)}'
`;
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function listing(ctx: Context): () => string {
  const { rng, words } = ctx;
  let dir = ctx.path.replace(/\/$/, '');
  let remaining = 0;
  return () => {
    if (remaining === 0) {
      const header = `${dir}:\ntotal ${rng.int(8, 4000)}\n`;
      remaining = rng.int(4, 30);
      dir = `${dir}/${rng.pick(words.nouns)}`;
      return `\n${header}`;
    }
    remaining--;
    const isDir = rng.chance(0.2);
    const date = new Date(ctx.clock - rng.int(0, 200) * 86_400_000);
    const when = `${MONTHS[date.getUTCMonth()]} ${String(date.getUTCDate()).padStart(2)} ${String(date.getUTCHours()).padStart(2, '0')}:${String(date.getUTCMinutes()).padStart(2, '0')}`;
    const name = isDir ? rng.pick(words.nouns) : fileName(ctx);
    const size = String(isDir ? 4096 : rng.int(0, 250_000)).padStart(8);
    return `${isDir ? 'drwxr-xr-x' : '-rw-r--r--'}  1 agent staff ${size} ${when} ${name}\n`;
  };
}

function fileName(ctx: Context): string {
  const { rng, words, multibyte } = ctx;
  if (multibyte.loneSurrogate()) return multibyte.cp1251FileName();
  if (multibyte.line()) return multibyte.fileName();
  return `${rng.pick(words.nouns)}-${rng.pick(words.nouns)}.${rng.pick(['ts', 'json', 'md', 'py', 'go', 'yaml'])}`;
}

function diffHunks(ctx: Context, details: TextDetails): () => string {
  const { rng } = ctx;
  const code = codeLines(ctx);
  let file = ctx.path;
  let hunkLines = 0;
  let start = true;
  return () => {
    if (start) {
      start = false;
      const from = (details.base ?? rng.hex(40)).slice(0, 12);
      return `diff --git a/${file} b/${file}\nindex ${from}..${rng.hex(12)} 100644\n--- a/${file}\n+++ b/${file}\n`;
    }
    if (hunkLines === 0) {
      hunkLines = rng.int(6, 40);
      if (rng.chance(0.15)) {
        file = sourcePathIn(ctx);
        start = true;
      }
      const at = rng.int(1, 800);
      return `@@ -${at},${hunkLines} +${at},${hunkLines + rng.int(-3, 6)} @@ ${code()}\n`;
    }
    hunkLines--;
    return `${rng.pick([' ', ' ', ' ', '+', '-'])}${code()}\n`;
  };
}

/**
 * What a browser tool reads off an admin page beside its screenshot: the page's heading, then
 * table rows and notices as the page shows them (owners and comments in the mix's languages).
 */
function pageText(ctx: Context): () => string {
  const { rng, words, multibyte } = ctx;
  let first = true;
  return () => {
    if (first) {
      first = false;
      const section = pascal(rng.pick(words.nouns));
      return `# ${pascal(rng.pick(words.products))} Admin\n[Dashboard] [${section}s] [Settings] [Sign out]\n\n## ${section}s (${rng.int(20, 9000)})\n| ID | Status | Owner | Amount | Updated |\n| --- | --- | --- | --- | --- |\n`;
    }
    if (rng.chance(0.1)) {
      return `\n${multibyte.line() ? multibyte.userMessage() : `Showing ${rng.int(1, 50)} of ${rng.int(50, 9000)}. ${rng.pick(words.phrases)}`}\n\n`;
    }
    const owner = multibyte.line() ? multibyte.person() : rng.pick(words.people);
    const status = rng.pick(['Active', 'Pending', 'Failed', 'Shipped', 'Archived']);
    return `| ${rng.pick(words.nouns)}_${rng.alnum(10)} | ${status} | ${owner} | $${rng.int(1, 999999) / 100} | ${timestamp(ctx).slice(0, 16).replace('T', ' ')} |\n`;
  };
}

/**
 * A JSON document that stays valid at any size above its skeleton: records are added while
 * they fit, and an opaque cursor takes the remaining bytes exactly.
 */
function jsonDocument(ctx: Context, bytes: number): string {
  const { rng, words, multibyte } = ctx;
  const head = `{\n  "request_id": "req_${rng.alnum(16)}",\n  "source": "${ctx.path}",\n  "items": [\n`;
  const tail = (cursor: string) => `\n  ],\n  "next_cursor": "${cursor}"\n}\n`;
  const skeleton = Buffer.byteLength(head) + tail('').length;
  if (bytes < skeleton + 8) return fillTo(bytes, '', () => logLine(ctx));
  const items: string[] = [];
  let size = skeleton;
  for (;;) {
    const localized = multibyte.line();
    const item = `    {"id": "${rng.pick(words.nouns)}_${rng.alnum(10)}", "status": "${rng.pick(['active', 'pending', 'failed', 'shipped', 'archived'])}", "owner": "${localized ? multibyte.person() : rng.pick(words.people)}", "amount": ${rng.int(1, 999999) / 100}, "sha": "${rng.hex(40)}", "updated_at": "${timestamp(ctx)}", "path": "${sourcePathIn(ctx)}"${localized ? `, "comment": "${multibyte.logMessage()}"` : ''}}`;
    const cost = Buffer.byteLength(item) + (items.length > 0 ? 2 : 0);
    if (size + cost > bytes - 8) break;
    items.push(item);
    size += cost;
  }
  return `${head}${items.join(',\n')}${tail(rng.hex(bytes - size))}`;
}
