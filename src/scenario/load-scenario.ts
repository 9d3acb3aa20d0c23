/**
 * Reading a scenario file: YAML, validated by the scenario schema. Whatever is wrong comes back
 * as one ScenarioError with a line `file:line:col: field: problem` per problem, in file order,
 * each pointing at the offending node. A YAML syntax error stops at the first: those after it
 * are mostly its echoes.
 */
import { readFileSync } from 'node:fs';
import { type Document, LineCounter, parseDocument } from 'yaml';
import { formatPath, type Problem, problemOf } from './issue-problem.ts';
import { ScenarioError } from './scenario-error.ts';
import { type Scenario, scenarioSchema } from './scenario-schema.ts';
import { findKeyNode, findNode, positionOf, startOf } from './yaml-location.ts';

/** Aliases expanded past this are a billion-laughs file, not a scenario. */
const MAX_ALIAS_COUNT = 100;

export function loadScenarioFile(path: string): Scenario {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new ScenarioError(`${path}: ${reason}`);
  }
  return parseScenario(text, path);
}

export function parseScenario(text: string, fileName: string): Scenario {
  const lineCounter = new LineCounter();
  const at = (offset: number, field: string, problem: string) =>
    ScenarioError.at({ file: fileName, ...positionOf(lineCounter, offset), field }, problem);

  let doc: Document.Parsed;
  let data: unknown;
  try {
    doc = parseDocument(text, { lineCounter, prettyErrors: false });
    const syntax = doc.errors[0];
    if (syntax) throw at(syntax.pos[0], '', syntaxMessage(syntax.message));
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // Deep nesting overflows the stack, alias bombs trip the alias count: the file is at fault either way.
    if (error instanceof ScenarioError) throw error;
    throw at(0, '', `not a readable YAML document: ${(error as Error).message}`);
  }

  let parsed: ReturnType<typeof scenarioSchema.safeParse>;
  try {
    parsed = scenarioSchema.safeParse(data);
  } catch (error) {
    throw at(0, '', `cannot be validated: ${(error as Error).message}`);
  }
  if (parsed.success) return parsed.data;

  const located = parsed.error.issues
    .map((issue) => locate(problemOf(issue, data, scenarioSchema), doc))
    .sort((a, b) => a.offset - b.offset)
    .map(({ problem, offset }) => ({
      location: { file: fileName, ...positionOf(lineCounter, offset), field: formatPath(problem.path) },
      problem: problem.message,
    }));
  // Two issues of one node that read the same (a union's branches) are one problem to the author.
  const seen = new Set<string>();
  throw ScenarioError.atAll(located.filter((p) => !seen.has(JSON.stringify(p)) && seen.add(JSON.stringify(p))));
}

/** Where a problem points: the unknown key itself, the value node, or (a missing key) its mapping. */
function locate(problem: Problem, doc: Document): { problem: Problem; offset: number } {
  const node = problem.kind === 'unknown-key' ? findKeyNode(doc, problem.path, problem.key) : findNode(doc, problem.path).node;
  return { problem, offset: startOf(node) };
}

/** yaml's messages, without the position it appends (we give our own in front). */
function syntaxMessage(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '');
}
