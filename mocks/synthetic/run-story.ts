/**
 * What a synthetic run is about: a repository, a service, a ticket, files, commits and ids.
 * Every prompt, tool call and answer of the run draws on it, so identifiers recur across the
 * run the way they do in real sessions (and the compaction card has something to keep).
 */
import type { Rng } from './random.ts';
import { vocabulary } from './vocabulary.ts';

export interface RunStory {
  repo: string;
  workspace: string;
  service: string;
  ticket: string;
  commit: string;
  orderId: string;
  requestId: string;
  url: string;
  /** Source files of the repository the run touches (relative to the workspace). */
  files: string[];
  testFile: string;
}

const TICKET_PREFIXES = ['PROJ', 'OPS', 'CORE', 'PAY', 'WEB', 'INFRA', 'API'];
const EXTENSIONS = ['ts', 'ts', 'ts', 'tsx', 'py', 'go'];

export function createStory(rng: Rng): RunStory {
  const words = vocabulary();
  const repo = rng.pick(words.products);
  const service = `${rng.pick(words.nouns)}-service`;
  const files = Array.from({ length: rng.int(6, 12) }, () => sourcePath(rng));
  const module = rng.pick(words.nouns);
  return {
    repo,
    workspace: `/workspace/${repo}`,
    service,
    ticket: `${rng.pick(TICKET_PREFIXES)}-${rng.int(100, 9999)}`,
    commit: rng.hex(40),
    orderId: `ord_${rng.alnum(12)}`,
    requestId: `req_${rng.alnum(16)}`,
    url: `http://localhost:${rng.pick([3000, 4173, 5173, 8080])}/${module}`,
    files,
    testFile: `tests/${module}/${rng.pick(words.nouns)}.test.ts`,
  };
}

/** A plausible source path: src/<area>/<name>-<name>.<ext>. */
export function sourcePath(rng: Rng): string {
  const words = vocabulary();
  const depth = rng.int(1, 3);
  const dirs = Array.from({ length: depth }, () => rng.pick(words.nouns));
  return `src/${dirs.join('/')}/${rng.pick(words.nouns)}-${rng.pick(words.nouns)}.${rng.pick(EXTENSIONS)}`;
}

/** The identifiers the user's request names, in the order it names them. */
export function storyIdentifiers(story: RunStory): string[] {
  return [story.ticket, story.commit.slice(0, 12), story.orderId, story.requestId, story.files[0] as string, story.testFile];
}
