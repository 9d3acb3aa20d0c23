/** `npm run schema`: regenerates the JSON Schemas from the zod schemas: scenario files, and the kernel contract. */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contractJsonSchemaText } from '../contract/contract-json-schema.ts';
import { SCENARIO_JSON_SCHEMA_FILE, scenarioJsonSchemaText } from './json-schema.ts';

const CONTRACT_JSON_SCHEMA_FILE = fileURLToPath(new URL('../../contract/kernel-contract.schema.json', import.meta.url));

for (const [file, text] of [
  [SCENARIO_JSON_SCHEMA_FILE, scenarioJsonSchemaText()],
  [CONTRACT_JSON_SCHEMA_FILE, contractJsonSchemaText()],
] as const) {
  writeFileSync(file, text);
  console.log(`wrote ${relative(process.cwd(), file)}`);
}
