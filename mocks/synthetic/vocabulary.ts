/**
 * Word pools for synthetic content, drawn once from a local faker instance with a fixed seed.
 * Bulk generators pick from these pools with a fast seeded generator: faker itself costs tens
 * of microseconds per call, which megabytes of tool output cannot afford.
 */
import { base, en, Faker } from '@faker-js/faker';

export interface Vocabulary {
  nouns: readonly string[];
  verbs: readonly string[];
  adjectives: readonly string[];
  people: readonly string[];
  products: readonly string[];
  domains: readonly string[];
  commitMessages: readonly string[];
  phrases: readonly string[];
}

const POOL_SEED = 20261108;
const POOL_SIZE = 240;

let pools: Vocabulary | undefined;

export function vocabulary(): Vocabulary {
  pools ??= buildPools();
  return pools;
}

function buildPools(): Vocabulary {
  const faker = new Faker({ locale: [en, base], seed: POOL_SEED });
  const draw = (make: () => string, clean: (s: string) => string) => unique(Array.from({ length: POOL_SIZE }, () => clean(make())));
  return {
    nouns: draw(() => faker.helpers.arrayElement([faker.hacker.noun(), faker.word.noun()]), slug),
    verbs: draw(() => faker.helpers.arrayElement([faker.hacker.verb(), faker.word.verb()]), slug),
    adjectives: draw(() => faker.helpers.arrayElement([faker.hacker.adjective(), faker.word.adjective()]), slug),
    people: draw(
      () => faker.person.firstName(),
      (s) => slug(s).replace(/-/g, ''),
    ),
    products: draw(() => `${faker.word.adjective()}-${faker.word.noun()}`, slug),
    domains: draw(
      () => faker.internet.domainName(),
      (s) => ascii(s).toLowerCase(),
    ),
    commitMessages: draw(() => faker.git.commitMessage(), ascii),
    phrases: draw(() => faker.hacker.phrase(), ascii),
  };
}

/** Lower-case words joined by dashes, ASCII only. */
function slug(text: string): string {
  return (
    ascii(text)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'item'
  );
}

/** The English pools stay ASCII; non-ASCII text comes from multibyte.ts, at the share the run shape sets. */
function ascii(text: string): string {
  return text.normalize('NFKD').replace(/[^\x20-\x7e]/g, '');
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
