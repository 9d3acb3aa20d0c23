/**
 * Tool schemas as agent frameworks write them: the OpenAI Agents SDK's strict `function_tool`
 * and `activity_as_tool` schemas (Python, from Pydantic), Pydantic AI's (`$defs`, `anyOf` with
 * null, defaults), Pydantic v1 and zod-to-json-schema's draft-07 `definitions`, and zod 4's
 * 2020-12 output. Tests give them to the mock model as an agent's own tools.
 */
import type { FunctionTool } from './client-players.ts';

/** The Agents SDK's `@function_tool def get_weather(city: str)` (the Temporal sample's only tool). */
export const GET_WEATHER: FunctionTool = {
  name: 'get_weather',
  description: 'Get the weather for a given city.',
  parameters: {
    type: 'object',
    properties: { city: { title: 'City', type: 'string' } },
    required: ['city'],
    title: 'get_weather_args',
    additionalProperties: false,
  },
};

/** `activity_as_tool` of an activity taking a Pydantic model; strict mode makes optionals nullable and required. */
export const GET_FORECAST_ACTIVITY: FunctionTool = {
  name: 'get_forecast',
  description: 'Get the forecast for a place.',
  parameters: {
    $defs: {
      Units: { enum: ['metric', 'imperial'], title: 'Units', type: 'string' },
      ForecastRequest: {
        properties: {
          city: { title: 'City', type: 'string' },
          days: { title: 'Days', type: 'integer', minimum: 1, maximum: 14 },
          units: { $ref: '#/$defs/Units' },
          country: { anyOf: [{ type: 'string' }, { type: 'null' }], title: 'Country' },
        },
        required: ['city', 'days', 'units', 'country'],
        title: 'ForecastRequest',
        type: 'object',
        additionalProperties: false,
      },
    },
    properties: { input: { $ref: '#/$defs/ForecastRequest' } },
    required: ['input'],
    title: 'get_forecast_args',
    type: 'object',
    additionalProperties: false,
  },
};

/** A Pydantic AI tool: a nested model, defaults, Literal, `str | None`, constrained and formatted fields, a tuple, a dict. */
export const BOOK_TRIP_PYDANTIC_AI: FunctionTool = {
  name: 'book_trip',
  description: 'Book a trip for a traveller.',
  parameters: {
    $defs: {
      Traveller: {
        properties: {
          name: { description: 'Full name', maxLength: 40, minLength: 3, title: 'Name', type: 'string' },
          email: { format: 'email', title: 'Email', type: 'string' },
          passport: { anyOf: [{ pattern: '^[A-Z]{2}[0-9]{7}$', type: 'string' }, { type: 'null' }], default: null, title: 'Passport' },
        },
        required: ['name', 'email'],
        title: 'Traveller',
        type: 'object',
      },
      Seat: { enum: ['aisle', 'window', 'middle'], title: 'Seat', type: 'string' },
    },
    additionalProperties: false,
    properties: {
      traveller: { $ref: '#/$defs/Traveller' },
      companions: { items: { $ref: '#/$defs/Traveller' }, maxItems: 3, title: 'Companions', type: 'array' },
      departure: { format: 'date', title: 'Departure', type: 'string' },
      return_at: { anyOf: [{ format: 'date-time', type: 'string' }, { type: 'null' }], default: null, title: 'Return At' },
      stay: { format: 'duration', title: 'Stay', type: 'string' },
      nights: { default: 3, exclusiveMinimum: 0, maximum: 30, title: 'Nights', type: 'integer' },
      budget: { anyOf: [{ minimum: 0, type: 'number' }, { type: 'null' }], title: 'Budget' },
      seat: { $ref: '#/$defs/Seat', default: 'aisle' },
      route: { maxItems: 2, minItems: 2, prefixItems: [{ type: 'string' }, { type: 'string' }], title: 'Route', type: 'array' },
      extras: { additionalProperties: { type: 'integer' }, title: 'Extras', type: 'object' },
      booking_id: { format: 'uuid', title: 'Booking Id', type: 'string' },
      kind: { const: 'leisure', title: 'Kind', type: 'string' },
    },
    required: ['traveller', 'departure', 'stay', 'budget', 'route', 'booking_id', 'kind'],
    type: 'object',
  },
};

/** A discriminated union (Pydantic's `oneOf` with `discriminator`), an `allOf` wrapper and a recursive model. */
export const FILE_TASK_PYDANTIC: FunctionTool = {
  name: 'file_task',
  parameters: {
    $defs: {
      Bug: {
        properties: { kind: { const: 'bug', type: 'string' }, severity: { enum: [1, 2, 3], type: 'integer' } },
        required: ['kind', 'severity'],
        type: 'object',
      },
      Chore: {
        properties: { kind: { const: 'chore', type: 'string' }, hours: { multipleOf: 0.5, type: 'number', minimum: 0 } },
        required: ['kind', 'hours'],
        type: 'object',
      },
      Step: {
        properties: { title: { type: 'string' }, substeps: { items: { $ref: '#/$defs/Step' }, type: 'array', maxItems: 2 } },
        required: ['title'],
        type: 'object',
      },
    },
    properties: {
      task: {
        discriminator: { mapping: { bug: '#/$defs/Bug', chore: '#/$defs/Chore' }, propertyName: 'kind' },
        oneOf: [{ $ref: '#/$defs/Bug' }, { $ref: '#/$defs/Chore' }],
      },
      owner: { allOf: [{ type: 'string', minLength: 1 }], description: 'Who owns it' },
      labels: { items: { type: 'string', maxLength: 12 }, type: 'array', uniqueItems: true },
      plan: { $ref: '#/$defs/Step' },
      due: { type: ['string', 'null'], format: 'date' },
      done: { type: 'boolean' },
      parent: { type: 'null' },
    },
    required: ['task', 'owner', 'due', 'done'],
    type: 'object',
  },
};

/** Pydantic v1 and zod-to-json-schema write draft-07 with `definitions`. */
export const SEARCH_DOCS_DRAFT_07: FunctionTool = {
  name: 'search_docs',
  parameters: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    definitions: {
      Filter: {
        type: 'object',
        properties: { field: { type: 'string' }, value: { type: ['string', 'number', 'boolean'] } },
        required: ['field', 'value'],
        additionalProperties: false,
      },
    },
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 200, maxLength: 400 },
      filters: { type: 'array', items: { $ref: '#/definitions/Filter' } },
      limit: { type: 'integer', minimum: 1, maximum: 50 },
      url: { type: 'string', format: 'uri' },
    },
    required: ['query', 'limit'],
    additionalProperties: false,
  },
};

/** zod 4's `z.toJSONSchema` (what TypeScript agents built on zod send). */
export const CREATE_TICKET_ZOD: FunctionTool = {
  name: 'create_ticket',
  parameters: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      title: { type: 'string', minLength: 5 },
      priority: { type: 'string', enum: ['low', 'high'] },
      assignee: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      estimate: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 100 },
    },
    required: ['title', 'priority', 'assignee'],
    additionalProperties: false,
  },
};

export const FRAMEWORK_TOOLS: readonly FunctionTool[] = [
  GET_WEATHER,
  GET_FORECAST_ACTIVITY,
  BOOK_TRIP_PYDANTIC_AI,
  FILE_TASK_PYDANTIC,
  SEARCH_DOCS_DRAFT_07,
  CREATE_TICKET_ZOD,
];
