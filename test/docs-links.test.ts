/**
 * Every relative link in the README and the docs reaches a file that exists, and a link to a
 * heading (`file.md#anchor`, `#anchor`) reaches a heading that exists, by GitHub's anchors: a
 * page moved or a section renamed fails here, not in a reader's browser.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../src/shared/package-paths.ts';

const SKIP = new Set(['node_modules', '.git', 'dist', 'reports', '.venv', 'blind-trials']);

function markdownFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (SKIP.has(name)) return [];
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  const anchors = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = anchorOf(heading ?? '');
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** The relative links of a markdown file, outside code blocks and code spans. */
function linksOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`\n]*`/g, '``');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '').filter((target) => !/^[a-z][a-z+.-]*:/i.test(target));
}

const FILES = [join(PACKAGE_ROOT, 'README.md'), join(PACKAGE_ROOT, 'CHANGELOG.md'), ...markdownFiles(join(PACKAGE_ROOT, 'docs'))];

describe('links in the README and docs/', () => {
  it('turns headings into anchors as GitHub does', () => {
    expect(anchorOf('A Python agent, step by step')).toBe('a-python-agent-step-by-step');
    expect(anchorOf('Install: the embedded server, cold and warm')).toBe('install-the-embedded-server-cold-and-warm');
    expect(anchorOf("Temporal's Web UI: `--ui`")).toBe('temporals-web-ui---ui');
  });

  it.each(FILES.map((file) => [relative(PACKAGE_ROOT, file), file]))('%s: every relative link reaches its file and heading', (_, file) => {
    const broken: string[] = [];
    for (const link of linksOf(file)) {
      const [path = '', anchor] = link.split('#');
      const target = path === '' ? file : join(dirname(file), decodeURIComponent(path));
      if (!existsSync(target)) broken.push(`${link}: no such file`);
      else if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(target).has(anchor)) broken.push(`${link}: no such heading`);
    }
    expect(broken).toEqual([]);
  });
});
