/**
 * The result model: what a longrun invocation found (summary.json), as zod schemas with the
 * types inferred from them. A leaf: the runner, chaos and load fill it, the reports render it.
 */
export * from './ids.ts';
export * from './load.ts';
export * from './summary.ts';
export * from './totals.ts';
