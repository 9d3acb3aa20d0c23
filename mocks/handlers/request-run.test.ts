import { afterEach, describe, expect, it } from 'vitest';
import { runMarker } from '../../src/contract/run-marker.ts';
import { type MockServer, startMockServer } from '../server/http-server.ts';
import { type RequestRoute, runOfRequest } from './request-run.ts';
import { responseId } from './responses-request.ts';

const marked = `Fix PROJ-12. ${runMarker('run-0042')}`;
const call = { id: 'call-1', type: 'function', function: { name: 'shell', arguments: '{"seed":1,"bytes":30}' } };

/** Requests of every kind, and the route a replica tells from their paths. */
const REQUESTS: { path: string; route: RequestRoute; body: unknown }[] = [
  {
    path: '/v1/chat/completions',
    route: { api: 'model', path: '/chat/completions' },
    body: { model: 'm', messages: [{ role: 'user', content: 'go' }], metadata: { longrun_run_id: 'given', longrun_turn: '2' } },
  },
  {
    path: '/v1/chat/completions',
    route: { api: 'model', path: '/chat/completions' },
    body: { model: 'm', messages: [{ role: 'user', content: marked }] },
  },
  {
    path: '/v1/chat/completions',
    route: { api: 'model', path: '/chat/completions' },
    body: { model: 'm', messages: [{ role: 'user', content: 'Fix it.' }] },
  },
  { path: '/v1/chat/completions', route: { api: 'model', path: '/chat/completions' }, body: { model: 7, messages: marked } },
  { path: '/v1/responses', route: { api: 'model', path: '/responses' }, body: { model: 'm', input: marked } },
  {
    path: '/v1/responses',
    route: { api: 'model', path: '/responses' },
    body: {
      model: 'm',
      input: [{ type: 'function_call_output', call_id: 'c', output: 'ok' }],
      previous_response_id: responseId('run-7', 2),
    },
  },
  { path: '/v1/responses/compact', route: { api: 'model', path: '/responses/compact' }, body: { model: 'm', input: marked } },
  {
    path: '/v1/v1/messages',
    route: { api: 'model', path: '/v1/messages' },
    body: { model: 'm', max_tokens: 64, messages: [{ role: 'user', content: marked }] },
  },
  { path: '/sandbox/v1/tools/shell', route: { api: 'sandbox' }, body: { runId: 'run-3', turn: 1, call } },
  { path: '/sandbox/v1/tools/shell', route: { api: 'sandbox' }, body: { runId: 'run-4', turn: 'one', call } },
];

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('runOfRequest', () => {
  it('tells the run the handlers record each request against, answered or refused', async () => {
    server = await startMockServer({ seed: 5, shape: { scale: 0.02 } });
    const told: (string | null)[] = [];
    for (const { path, route, body } of REQUESTS) {
      const text = JSON.stringify(body);
      await fetch(`${server.url}${path}`, { method: 'POST', body: text, headers: { 'content-type': 'application/json' } });
      told.push(runOfRequest(route, text, []));
    }
    expect(told).toEqual(server.recorder.records().map((record) => record.runId));
    expect(told).toEqual([
      'given',
      'run-0042',
      expect.stringMatching(/^anonymous-[0-9a-f]+$/),
      'run-0042',
      'run-0042',
      'run-7',
      'run-0042',
      'run-0042',
      'run-3',
      'run-4',
    ]);
  });

  it('tells none for a path the handlers do not serve', () => {
    expect(runOfRequest({ api: 'model', path: '/embeddings' }, JSON.stringify({ input: marked }), [])).toBeNull();
  });
});
