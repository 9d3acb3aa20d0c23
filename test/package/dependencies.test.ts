/**
 * The package's dependencies against the code it ships: every package production code imports is a
 * dependency (a user's install has no devDependencies), and every dependency is imported or
 * says in package.json's "//" why it stays.
 */
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { isTestCode, readSources } from '../architecture/layering.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGE = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
  dependencies: Record<string, string>;
  '//': string[];
};
/** Test support the build leaves out by name (tsconfig.build.json), beside the tests and `testing/` folders. */
const LEFT_OUT = (JSON.parse(readFileSync(`${ROOT}tsconfig.build.json`, 'utf8')) as { exclude: string[] }).exclude.filter(
  (path) => !path.includes('*'),
);

/** `@temporalio/common/lib/proto-utils.js` -> `@temporalio/common`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

function productionImports(): Map<string, string> {
  const imported = new Map<string, string>();
  for (const [file, source] of readSources(ROOT)) {
    if (isTestCode(file) || LEFT_OUT.includes(file)) continue;
    for (const { fileName } of ts.preProcessFile(source, true, true).importedFiles) {
      if (fileName.startsWith('.') || fileName.startsWith('node:') || builtinModules.includes(fileName)) continue;
      imported.set(packageOf(fileName), file);
    }
  }
  return imported;
}

describe("the package's dependencies", () => {
  const imported = productionImports();

  it('declare every package production code imports', () => {
    const undeclared = [...imported].filter(([name]) => !(name in PACKAGE.dependencies)).map(([name, file]) => `${name} (${file})`);
    expect(undeclared).toEqual([]);
  });

  it('are each imported, or say why they stay', () => {
    const unused = Object.keys(PACKAGE.dependencies).filter(
      (name) => !imported.has(name) && !PACKAGE['//'].some((reason) => reason.startsWith(`${name}: `)),
    );
    expect(unused).toEqual([]);
  });
});
