/**
 * An agent with an output type of its own (structured output) asks for its final answer as JSON
 * of a schema: the mock's final answer is a seeded value of that schema, through the real openai
 * client, so the framework parses it as it would a real model's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { argumentsProblem } from './handlers/argument-schema.ts';
import { type InProcessMocks, startInProcessMocks } from './server/in-process.ts';
import { openAIClient } from './testing/client-players.ts';

/** As the Agents SDK writes an output type's strict schema. */
const REPORT = {
  type: 'object',
  properties: {
    summary: { type: 'string' },
    severity: { type: 'string', enum: ['low', 'high'] },
    follow_up: { type: 'array', items: { type: 'string' } },
  },
  required: ['summary', 'severity', 'follow_up'],
  additionalProperties: false,
};

let mocks: InProcessMocks | undefined;
afterEach(() => {
  mocks?.close();
  mocks = undefined;
});

describe('structured output', () => {
  it('answers the final turn with a value of the schema asked for, the same for the same seed, in both OpenAI formats', async () => {
    mocks = startInProcessMocks({ seed: 5, shape: { scale: 0.02, overrides: { turns: 1 } } });
    const client = openAIClient({ modelBaseUrl: mocks.modelBaseUrl });
    const userRequest = mocks.planFor('run-0001').userRequest;
    const response = await client.responses.create({
      model: 'm',
      input: userRequest,
      text: { format: { type: 'json_schema', name: 'report', schema: REPORT, strict: true } },
    });
    const fromResponses = JSON.parse(response.output_text);
    expect(argumentsProblem(REPORT, fromResponses)).toBeNull();
    const completion = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: userRequest }],
      response_format: { type: 'json_schema', json_schema: { name: 'report', schema: REPORT, strict: true } },
    });
    expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual(fromResponses);
  });

  it('refuses a json_schema format without its schema, naming the field', async () => {
    mocks = startInProcessMocks({ seed: 5, shape: { scale: 0.02, overrides: { turns: 1 } } });
    const client = openAIClient({ modelBaseUrl: mocks.modelBaseUrl });
    const request = { model: 'm', input: mocks.planFor('run-0001').userRequest, text: { format: { type: 'json_schema', name: 'x' } } };
    await expect(client.responses.create(request as never)).rejects.toThrow(
      'body.text.format.schema: a json_schema format needs its schema',
    );
  });
});
