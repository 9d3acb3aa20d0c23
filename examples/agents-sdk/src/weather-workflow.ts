/**
 * A second agent, written the way Temporal's public TypeScript samples write one on the Agents
 * SDK, with nothing of longrun's in it: its own signature (a question in, the answer out), its own
 * tool (the activity `getWeather`, offered through `activityAsTool`), the SDK's default model
 * and turn limit. longrun starts it with `args: ['{{userRequest}}']`, the question ending with the
 * run marker, which the SDK forwards as it is; the mock model, offered none of the sandbox's
 * tools, plays the plan's tool calls as `getWeather` calls.
 */
import { Agent } from '@openai/agents-core';
import { activityAsTool, TemporalOpenAIRunner } from '@temporalio/openai-agents/workflow';
import type { getWeather } from './weather-activities.ts';

export async function weatherAgent(question: string): Promise<string> {
  const weather = activityAsTool<typeof getWeather>(
    {
      name: 'getWeather',
      description: 'Get the current weather in a city.',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string', description: "The city's name" } },
        required: ['city'],
        additionalProperties: false,
      },
    },
    { startToCloseTimeout: '30 seconds' },
  );
  const agent = new Agent({
    name: 'WeatherAgent',
    instructions: 'You answer questions about the weather. Use the getWeather tool for every city you are asked about.',
    tools: [weather],
  });
  const result = await new TemporalOpenAIRunner().run(agent, question);
  return result.finalOutput ?? '';
}
