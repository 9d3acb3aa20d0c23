import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The product speaks of itself, never of how it was made: no sitting of the work named by its
 * number or by when it was, in the docs, the scenarios or code comments. "Session" stays free for what the product means
 * by it (an agent's session, a worker session, PostgreSQL's sessions): only the diary's phrases
 * are refused, a session with a number or one named by when it was.
 */
const DIARY = [/\bsessions?\s+\d+/i, /\bsession-\d+/i, /\b(?:this|last|previous|prior|earlier|a later)\s+session\b/i];

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Where the product's prose lives, from the repository's root. */
const ROOTS = ['README.md', 'CHANGELOG.md', 'docs', 'scenarios', 'src', 'mocks', 'bench', 'test', 'examples', 'tools', 'bin'];
/** Folders that are not the product's own words: installed, built, recorded or fetched. */
const SKIPPED = new Set(['node_modules', 'dist', 'reports', 'testdata', 'fixtures', '__pycache__']);
const PROSE = /\.(?:md|ya?ml)$/;
const CODE = /\.(?:[cm]?[jt]s|py|go|sh)$/;

type Kind = 'prose' | 'code';

/** The text of each line a reader takes for prose: the whole line of a document, a comment's part of a line of code. */
function proseLines(text: string, kind: Kind): string[] {
  const lines = text.split('\n');
  if (kind === 'prose') return lines;
  let inBlock = false;
  let inDocstring = false;
  return lines.map((line) => {
    let prose = '';
    let rest = line;
    if (inBlock) {
      const end = rest.indexOf('*/');
      if (end < 0) return rest;
      prose += rest.slice(0, end);
      rest = rest.slice(end + 2);
      inBlock = false;
    }
    if (inDocstring || /^\s*(?:"""|''')/.test(rest)) {
      // A Python docstring: prose from its first line to the line that closes it.
      const quotes = (rest.match(/"""|'''/g) ?? []).length;
      if (quotes % 2 === 1) inDocstring = !inDocstring;
      return prose + rest;
    }
    // A comment starts at `//` (not a URL's `://`), `/*` or `#` (a Python or shell line comment).
    const start = rest.search(/(?<!:)\/\/|\/\*|(?:^|\s)#(?!!)/);
    if (start < 0) return prose;
    const comment = rest.slice(start);
    if (comment.startsWith('/*') && !comment.includes('*/', 2)) inBlock = true;
    return prose + comment;
  });
}

/** `line: the phrase` for each diary phrase in a text. */
function diaryPhrases(text: string, kind: Kind): string[] {
  return proseLines(text, kind).flatMap((line, index) =>
    DIARY.flatMap((pattern) => {
      const found = pattern.exec(line);
      return found ? [`${index + 1}: "${found[0]}"`] : [];
    }),
  );
}

function filesUnder(path: string): string[] {
  const full = join(ROOT, path);
  let entries: Dirent[];
  try {
    entries = readdirSync(full, { withFileTypes: true });
  } catch {
    return [path];
  }
  return entries.flatMap((entry) => {
    if (entry.name.startsWith('.') || SKIPPED.has(entry.name)) return [];
    const child = relative(ROOT, join(full, entry.name));
    return entry.isDirectory() ? filesUnder(child) : [child];
  });
}

describe('no work diary in the product', () => {
  it('finds no session of the work named in the docs, the scenarios or a code comment', () => {
    const found = ROOTS.flatMap(filesUnder).flatMap((file) => {
      const kind: Kind | undefined = PROSE.test(file) ? 'prose' : CODE.test(file) ? 'code' : undefined;
      if (kind === undefined) return [];
      return diaryPhrases(readFileSync(join(ROOT, file), 'utf8'), kind).map((where) => `${file}:${where}`);
    });
    expect(found).toEqual([]);
  });

  // The planted phrases are put together here, so that this file holds none of them whole.
  const numbered = `Measured in ${'sess'}ion 9 on a quiet machine.`;

  it('fails on a planted diary phrase, naming its line', () => {
    expect(diaryPhrases(`# Benchmarks\n\n${numbered}\n`, 'prose')).toEqual([`3: "${'sess'}ion 9"`]);
    expect(diaryPhrases(`Fixed in ${'sess'}ions 8-9; see the ${'previous'} ${'sess'}ion.`, 'prose')).toHaveLength(2);
  });

  it('reads only the comments of code: a line comment, a block comment, a Python docstring', () => {
    const ts = `const name = 'chat';\n// ${numbered}\n/**\n * ${numbered}\n */\nconst url = 'http://x'; // ok\n`;
    expect(diaryPhrases(ts, 'code').map((where) => where.split(':')[0])).toEqual(['2', '4']);
    const py = `def run():\n    """\n    ${numbered}\n    """\n    label = "${'sess'}ion 2"  # a product string, not a comment\n`;
    expect(diaryPhrases(py, 'code')).toEqual([`3: "${'sess'}ion 9"`]);
  });

  it('leaves the product its own sessions', () => {
    const product = [
      'Load and chaos test harness for Temporal workflows that run long LLM agent sessions',
      'the chaos session owns the cluster, started before the server',
      "PostgreSQL saw 3 of the server's sessions cut",
      'an OpenAI Agents SDK Session keeps the conversation; a worker session pins activities',
    ].join('\n');
    expect(diaryPhrases(product, 'prose')).toEqual([]);
  });
});
