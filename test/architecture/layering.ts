/**
 * The layering of docs/architecture.md, checked against the code: the "Folders" table says what
 * each folder may import; this reads the table, every module's imports (TypeScript's own
 * pre-processor: static, type-only, re-exports and dynamic imports alike), and reports each
 * import the table does not allow, each cycle between files, each Node module workflow code
 * can reach, and each module no row owns.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';

export interface LayerRule {
  /** A folder (ending in /) or a file, relative to the repository. */
  path: string;
  /** Paths it may import; 'everything' for the CLI and the public entry. */
  mayImport: readonly string[] | 'everything';
}

/** Files the bundler gets as workflow code: the binaries' entries; everything they reach is checked too. */
export interface LayeringRules {
  layers: readonly LayerRule[];
  workflowEntries: (file: string) => boolean;
  /** The only package workflow code may import. */
  workflowPackages: readonly string[];
}

const SOURCE_ROOTS = ['src', 'mocks'];

/** Tests and test support (`testing/` folders): free to import anything, never imported by production code. */
export function isTestCode(file: string): boolean {
  return /\.test\.ts$/.test(file) || /(^|\/)testing\//.test(file) || /^(test|bench)\//.test(file);
}

/** The rows of the "Folders" table of docs/architecture.md. Throws on a row it cannot read. */
export function parseLayerTable(markdown: string): LayerRule[] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith('Folders'));
  if (!section) throw new Error('docs/architecture.md: no "## Folders" section');
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  if (rows.length === 0) throw new Error('docs/architecture.md: the Folders table has no rows');
  return rows.map((row) => {
    const cells = row.split('|').map((cell) => cell.trim());
    const path = /^`([^`]+)`$/.exec(cells[1] ?? '')?.[1];
    const last = cells.at(-2) ?? '';
    if (!path) throw new Error(`docs/architecture.md: a Folders row does not start with a \`path\`: ${row}`);
    if (last === 'everything') return { path, mayImport: 'everything' };
    if (last === 'nothing') return { path, mayImport: [] };
    const named = [...last.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
    if (named.length === 0) throw new Error(`docs/architecture.md: row ${path}: "may import" names no \`path\` (or nothing, everything)`);
    return { path, mayImport: named };
  });
}

/** Every TypeScript module of the repository's source roots, by relative path. */
export function readSources(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(path);
      else if (entry.isFile() && entry.name.endsWith('.ts')) files.set(path, readFileSync(join(root, path), 'utf8'));
    }
  };
  for (const dir of SOURCE_ROOTS) walk(dir);
  return files;
}

interface Import {
  /** A repository path for a relative import, the specifier for a package or Node module. */
  target: string;
  relative: boolean;
}

function importsOf(file: string, source: string): Import[] {
  return ts
    .preProcessFile(source, true, true)
    .importedFiles.map(({ fileName }) =>
      fileName.startsWith('.')
        ? { target: normalize(join(dirname(file), fileName)), relative: true }
        : { target: fileName, relative: false },
    );
}

const covers = (entry: string, file: string): boolean => (entry.endsWith('/') ? file.startsWith(entry) : file === entry);

function owner(layers: readonly LayerRule[], file: string): LayerRule | undefined {
  return layers.filter((layer) => covers(layer.path, file)).sort((a, b) => b.path.length - a.path.length)[0];
}

function isNodeModule(specifier: string): boolean {
  return specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0] as string);
}

/** Each import cycle among `graph`'s files, as its files (Tarjan's strongly connected components). */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) as number, index.get(next) as number));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || graph.get(file)?.includes(file)) found.push(component.sort());
    }
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return found;
}

/** One line per violation of `rules` in `sources`; none when the code follows the table. */
export function checkLayering(sources: ReadonlyMap<string, string>, rules: LayeringRules): string[] {
  const problems: string[] = [];
  for (const layer of rules.layers) {
    const exists = [...sources.keys()].some((file) => covers(layer.path, file));
    if (!exists) problems.push(`docs/architecture.md: row ${layer.path} owns no module (renamed or removed?)`);
    if (layer.mayImport === 'everything') continue;
    for (const entry of layer.mayImport) {
      if (![...sources.keys()].some((file) => covers(entry, file)))
        problems.push(`docs/architecture.md: row ${layer.path} may import ${entry}, which holds no module`);
    }
  }
  const production = [...sources.keys()].filter((file) => !isTestCode(file)).sort();
  const graph = new Map<string, string[]>();
  for (const file of production) {
    const layer = owner(rules.layers, file);
    if (!layer) problems.push(`${file}: no row of docs/architecture.md's Folders table owns it`);
    const targets: string[] = [];
    for (const { target, relative: isRelative } of importsOf(file, sources.get(file) as string)) {
      if (!isRelative || !sources.has(target)) continue;
      if (isTestCode(target)) {
        problems.push(`${file} imports test code ${target}`);
        continue;
      }
      targets.push(target);
      const theirs = owner(rules.layers, target);
      if (!layer || !theirs || theirs === layer || layer.mayImport === 'everything') continue;
      if (!layer.mayImport.some((entry) => covers(entry, target))) {
        const allowed = layer.mayImport.length > 0 ? layer.mayImport.join(', ') : 'nothing';
        problems.push(`${file} imports ${target}: ${layer.path} may import ${allowed}`);
      }
    }
    graph.set(file, targets);
  }
  for (const cycle of cycles(graph)) problems.push(`import cycle: ${cycle.join(' -> ')}`);
  problems.push(...workflowCodeProblems(sources, rules));
  return problems;
}

/** Workflow code reaches no Node module and no package but the workflow SDK. */
function workflowCodeProblems(sources: ReadonlyMap<string, string>, rules: LayeringRules): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const queue = [...sources.keys()].filter(rules.workflowEntries).map((file) => ({ file, from: [file] }));
  while (queue.length > 0) {
    const { file, from } = queue.shift() as { file: string; from: string[] };
    if (seen.has(file)) continue;
    seen.add(file);
    for (const { target, relative: isRelative } of importsOf(file, sources.get(file) as string)) {
      if (isRelative) {
        if (sources.has(target)) queue.push({ file: target, from: [...from, target] });
      } else if (isNodeModule(target) || !rules.workflowPackages.includes(target)) {
        problems.push(`workflow code imports ${target}: ${from.join(' -> ')}`);
      }
    }
  }
  return problems;
}

/** The repository's rules: docs/architecture.md's table, the binaries' entries and the harness workers' workflows as workflow code. */
export function repositoryRules(root: string): LayeringRules {
  return {
    layers: parseLayerTable(readFileSync(join(root, 'docs/architecture.md'), 'utf8')),
    workflowEntries: (file) =>
      (file.startsWith('src/kernel/binaries/') && !isTestCode(file) && relative('src/kernel/binaries', file) !== 'index.ts') ||
      file === 'src/distributed/harness-workflows.ts',
    workflowPackages: ['@temporalio/workflow'],
  };
}
