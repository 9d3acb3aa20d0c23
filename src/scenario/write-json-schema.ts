/** `npm run schema`: regenerates scenarios/schema/scenario.schema.json from the zod schema. */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { SCENARIO_JSON_SCHEMA_FILE, scenarioJsonSchemaText } from './json-schema.ts';

writeFileSync(SCENARIO_JSON_SCHEMA_FILE, scenarioJsonSchemaText());
console.log(`wrote ${relative(process.cwd(), SCENARIO_JSON_SCHEMA_FILE)}`);
