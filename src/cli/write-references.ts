/**
 * `npm run schema`, after the JSON Schemas: regenerates the references in docs/reference/ from
 * what they describe: the scenario file's from its JSON Schema, the CLI's from the commands' own
 * flag definitions.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { SCENARIO_REFERENCE_FILE, scenarioReferenceText } from '../scenario/scenario-reference.ts';
import { CLI_REFERENCE_FILE, cliReferenceText } from './cli-reference.ts';

for (const [file, text] of [
  [SCENARIO_REFERENCE_FILE, scenarioReferenceText()],
  [CLI_REFERENCE_FILE, await cliReferenceText()],
] as const) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  console.log(`wrote ${relative(process.cwd(), file)}`);
}
// The commands' modules start the SDK's runtime; nothing here needs it to end.
process.exit(0);
