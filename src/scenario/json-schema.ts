/**
 * The JSON Schema of scenario files, generated from the zod schema, for editors (the
 * yaml-language-server comment at the top of every scenario points at it).
 */
import { z } from 'zod';
import { packagePath } from '../shared/package-paths.ts';
import { scenarioSchema } from './scenario-schema.ts';

export const SCENARIO_JSON_SCHEMA_FILE = packagePath('scenarios/schema/scenario.schema.json');

/** The file's exact text: what `npm run schema` writes and the up-to-date test compares. */
export function scenarioJsonSchemaText(): string {
  const { $schema, ...schema } = z.toJSONSchema(scenarioSchema, { io: 'input', unrepresentable: 'any' });
  return `${JSON.stringify({ $schema, title: 'longrun scenario', ...schema }, null, 2)}\n`;
}
