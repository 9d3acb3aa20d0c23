/**
 * contract/kernel-contract.schema.json: the contract as one JSON Schema, every payload under
 * `$defs`, with the workflow type, the activities (which payload goes in, which comes back) and
 * the worker's environment beside them. `npm run schema` writes it; a test keeps it current.
 */
import { z } from 'zod';
import { CONTRACT_SCHEMAS } from './contract-schemas.ts';
import { ACTIVITY, WORKFLOW_TYPE } from './kernel-api.ts';
import { runMarker } from './run-marker.ts';
import { WORKER_ENV } from './worker-env.ts';

const ref = (name: keyof typeof CONTRACT_SCHEMAS) => `#/$defs/${name}`;

/** The file's exact text. */
export function contractJsonSchemaText(): string {
  const $defs = Object.fromEntries(
    Object.entries(CONTRACT_SCHEMAS).map(([name, schema]) => {
      const { $schema: _, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
      return [name, json];
    }),
  );
  const document = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'longrun kernel contract',
    description:
      'What a kernel (an agent-run workflow in any language) speaks to be driven and judged by longrun: payloads are JSON (json/plain), sizes are UTF-8 bytes. Generated from src/contract/contract-schemas.ts.',
    workflow: { type: WORKFLOW_TYPE, input: ref('RunInput'), result: ref('RunResult'), continueAsNewInput: ref('RunInput') },
    activities: {
      [ACTIVITY.callModel]: { input: ref('CallModelInput'), result: ref('CallModelResult') },
      [ACTIVITY.compactContext]: { input: ref('CompactContextInput'), result: ref('CompactContextResult') },
      [ACTIVITY.runTool]: { input: ref('RunToolInput'), result: ref('RunToolResult') },
      [ACTIVITY.journalAppend]: { input: ref('JournalAppendInput'), result: ref('JournalAppendResult') },
    },
    modelApi: {
      endpoint: 'POST {modelUrl}/chat/completions',
      request: ref('ChatRequest'),
      response: ref('ChatResponse'),
      alsoSpoken: {
        'POST {modelUrl}/responses': 'the OpenAI Responses API, streaming or not',
        'POST {modelUrl}/messages': "Anthropic's Messages API, streaming or not (its SDKs take {modelUrl} without /v1 as baseURL)",
      },
      runMarker: `${runMarker('<runId>')} in the first user message names the run when a request carries no metadata (src/contract/run-marker.ts)`,
    },
    sandboxApi: { endpoint: 'POST {sandboxUrl}/tools/{name}', request: ref('RunToolInput'), response: ref('RunToolResult') },
    workerEnvironment: WORKER_ENV,
    $defs,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
