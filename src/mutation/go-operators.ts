/**
 * The mutation operators of `npm run mutation:go`: one small change of a Go source line, the kind
 * of slip a Go mutation tool makes (conditional boundaries, negated conditionals, arithmetic,
 * increments, constants off by one, removed statements, `&&`/`||`, booleans) and the two of
 * `workflow.GetVersion` (its oldest and its newest supported version). Strings and comments are
 * never mutated. Deterministic: the same source and lines give the same mutants in the same order.
 */

export interface GoMutant {
  /** `<file>:<line>:<column>` (1-based), with the operator: stable across runs of the same source. */
  id: string;
  file: string;
  line: number;
  column: number;
  operator: string;
  original: string;
  replacement: string;
}

/** A line's code with its strings and comment blanked (same length), so operators match code only. */
export function codeOf(line: string): string {
  let out = '';
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quote) {
      if (c === '\\' && quote !== '`') {
        out += '  ';
        i++;
      } else if (c === quote) {
        quote = undefined;
        out += c;
      } else {
        out += ' ';
      }
      continue;
    }
    if (c === '/' && line[i + 1] === '/') return out + ' '.repeat(line.length - i);
    if (c === '"' || c === '`' || c === "'") quote = c;
    out += c;
  }
  return out;
}

interface Rule {
  operator: string;
  /** Matched on the line's code; group 1 (or the whole match) is what is replaced. */
  pattern: RegExp;
  replace: (matched: string) => string[];
}

const BOUNDARY: Record<string, string> = { '<': '<=', '<=': '<', '>': '>=', '>=': '>' };
const NEGATED: Record<string, string> = { '<': '>=', '<=': '>', '>': '<=', '>=': '<', '==': '!=', '!=': '==' };

const RULES: Rule[] = [
  // A comparison: not `<-` (a channel), not `<<`/`>>`, not part of `:=`, `+=`, `!=` handled as a whole.
  { operator: 'conditional-boundary', pattern: /(?<![<>=!:+\-*/&|^])(<=|>=|<|>)(?![<>=-])/g, replace: (m) => [BOUNDARY[m] as string] },
  { operator: 'negated-conditional', pattern: /(?<![<>=!:+\-*/&|^])(<=|>=|==|!=|<|>)(?![<>=-])/g, replace: (m) => [NEGATED[m] as string] },
  { operator: 'logical', pattern: /(&&|\|\|)/g, replace: (m) => [m === '&&' ? '||' : '&&'] },
  // `!x` negated back: not `!=`.
  { operator: 'negation-removed', pattern: /(!)(?!=)/g, replace: () => [''] },
  // Binary + and -: an operand before it (an identifier, a number, `)` or `]`), not `++`, `--`, `+=`, `-=`.
  { operator: 'arithmetic', pattern: /(?<=[\w)\]]\s*)(?<![+-])([+-])(?![+=-])/g, replace: (m) => [m === '+' ? '-' : '+'] },
  { operator: 'assignment-arithmetic', pattern: /(\+=|-=)/g, replace: (m) => [m === '+=' ? '-=' : '+='] },
  { operator: 'increment', pattern: /(\+\+|--)/g, replace: (m) => [m === '++' ? '--' : '++'] },
  // An integer literal on its own (not inside an identifier, a float or a hex number; `_` separators kept out).
  {
    operator: 'constant-off-by-one',
    pattern: /(?<![\w.])(\d+)(?![\w.])/g,
    replace: (m) => (m === '0' ? ['1'] : [String(Number(m) + 1), String(Number(m) - 1)]),
  },
  { operator: 'boolean', pattern: /(?<![\w.])(true|false)(?!\w)/g, replace: (m) => [m === 'true' ? 'false' : 'true'] },
];

/** `workflow.GetVersion(ctx, id, min, max)`: min raised to 1, max raised to 2 (each a replay slip). */
const GET_VERSION = /workflow\.GetVersion\(([^,]+),([^,]+),\s*([\w.]+),\s*(\d+)\)/;

/** A statement the program still builds without: an assignment, an increment, a call on its own. */
const REMOVABLE = /^\s*(?:[\w.[\]]+\s*(?:\+\+|--|[+-]?=)(?:\s*.*[^{(,\s])?|[\w.]+\(.*\))\s*$/;

export function mutantsOfLine(file: string, lineNumber: number, text: string): GoMutant[] {
  const code = codeOf(text);
  if (code.trim() === '' || /^\s*(?:func|import|package|type|var|const)\b/.test(code)) return [];
  const mutants: GoMutant[] = [];
  const add = (operator: string, index: number, original: string, replacement: string) => {
    mutants.push({
      id: `${file}:${lineNumber}:${index + 1}:${operator}`,
      file,
      line: lineNumber,
      column: index + 1,
      operator,
      original,
      replacement,
    });
  };
  const version = GET_VERSION.exec(code);
  if (version) {
    const minimum = version[3] as string;
    const maximum = version[4] as string;
    const at = version.index;
    const call = version[0];
    if (minimum !== '1') add('getversion-min', at, call, call.replace(`${minimum},`, '1,'));
    add('getversion-max', at, call, call.replace(new RegExp(`${maximum}\\)$`), `${Number(maximum) + 1})`));
  }
  for (const rule of RULES) {
    for (const match of code.matchAll(rule.pattern)) {
      const matched = match[1] ?? match[0];
      const index = (match.index ?? 0) + match[0].indexOf(matched);
      // Inside the GetVersion call its own operators stand for the constants.
      if (version && index >= version.index && index < version.index + version[0].length) continue;
      for (const replacement of rule.replace(matched)) add(rule.operator, index, matched, replacement);
    }
  }
  if (REMOVABLE.test(code) && !/:=/.test(code)) add('statement-removed', text.search(/\S/), text.trim(), '');
  return dedupe(mutants);
}

/** `<` flipped by both boundary and negation rules gives distinct code; the same code twice is one mutant. */
function dedupe(mutants: GoMutant[]): GoMutant[] {
  const seen = new Set<string>();
  return mutants.filter((m) => {
    const key = `${m.line}:${m.column}:${m.original}:${m.replacement}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function mutantsOf(file: string, source: string, lines: { from: number; to: number }): GoMutant[] {
  const all = source.split('\n');
  const mutants: GoMutant[] = [];
  for (let n = lines.from; n <= Math.min(lines.to, all.length); n++) mutants.push(...mutantsOfLine(file, n, all[n - 1] as string));
  return mutants;
}

/** The source with one mutant applied; throws when the line no longer holds what it replaces. */
export function applyMutant(source: string, mutant: GoMutant): string {
  const lines = source.split('\n');
  const text = lines[mutant.line - 1] ?? '';
  const at = mutant.column - 1;
  if (text.slice(at, at + mutant.original.length) !== mutant.original) {
    throw new Error(`${mutant.file}:${mutant.line}:${mutant.column} no longer holds ${JSON.stringify(mutant.original)}`);
  }
  const indent = text.slice(0, at);
  lines[mutant.line - 1] =
    mutant.operator === 'statement-removed'
      ? `${indent}// removed: ${mutant.original}`
      : indent + mutant.replacement + text.slice(at + mutant.original.length);
  return lines.join('\n');
}
