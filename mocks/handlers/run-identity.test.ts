import { describe, expect, it } from 'vitest';
import { runMarker } from '../../src/contract/run-marker.ts';
import { readAnthropicRequest } from './anthropic-request.ts';
import { readChatRequest } from './chat-request.ts';
import { readResponsesRequest, responseId } from './responses-request.ts';
import { identify } from './run-identity.ts';

const body = (value: unknown) => JSON.stringify(value);
const marked = `Fix PROJ-12. ${runMarker('soak-run-0042')}`;

describe('which run and turn a request is, without state', () => {
  it('takes the metadata first, then the marker, then a hash of the first user message', () => {
    const chat = (content: string, metadata?: object) =>
      identify(readChatRequest(body({ model: 'm', messages: [{ role: 'user', content }], metadata }), []));
    expect(chat(marked, { longrun_run_id: 'given', longrun_turn: '4' })).toEqual({ runId: 'given', turn: 4 });
    expect(chat(marked)).toEqual({ runId: 'soak-run-0042', turn: 1 });
    expect(chat('Fix PROJ-12.').runId).toMatch(/^anonymous-[0-9a-f]+$/);
    expect(chat('Fix PROJ-12.')).toEqual(chat('Fix PROJ-12.'));
    expect(chat('Fix PROJ-13.').runId).not.toBe(chat('Fix PROJ-12.').runId);
  });

  it('counts one Responses answer per run of model items: reasoning, a message and its function calls', () => {
    const call = (id: string) => ({ type: 'function_call', call_id: id, name: 'shell', arguments: '{}' });
    const output = (id: string) => ({ type: 'function_call_output', call_id: id, output: 'ok' });
    const input = [
      { role: 'user', content: [{ type: 'input_text', text: marked }] },
      { type: 'reasoning', id: 'rs_1', summary: [] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Looking.' }] },
      call('a'),
      call('b'),
      output('a'),
      output('b'),
      call('c'),
      output('c'),
    ];
    expect(identify(readResponsesRequest(body({ model: 'm', input }), []))).toEqual({ runId: 'soak-run-0042', turn: 3 });
    expect(identify(readResponsesRequest(body({ model: 'm', input: marked }), []))).toEqual({ runId: 'soak-run-0042', turn: 1 });
    const chained = body({ model: 'm', input: [output('c')], previous_response_id: responseId('soak-run-0042', 2) });
    expect(identify(readResponsesRequest(chained, []))).toEqual({ runId: 'soak-run-0042', turn: 3 });
  });

  it('counts Anthropic assistant messages, system apart', () => {
    const request = body({
      model: 'm',
      max_tokens: 10,
      system: 'You are an agent.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: marked }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'shell', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
      ],
    });
    expect(identify(readAnthropicRequest(request, []))).toEqual({ runId: 'soak-run-0042', turn: 2 });
  });

  it('gives the same anonymous run to the same prompt in every format', () => {
    const prompt = 'Fix the flaky test.';
    const ids = [
      readChatRequest(
        body({
          model: 'm',
          messages: [
            { role: 'system', content: 's' },
            { role: 'user', content: prompt },
          ],
        }),
        [],
      ),
      readResponsesRequest(body({ model: 'm', instructions: 's', input: prompt }), []),
      readAnthropicRequest(body({ model: 'm', max_tokens: 1, system: 's', messages: [{ role: 'user', content: prompt }] }), []),
    ].map((request) => identify(request).runId);
    expect(new Set(ids).size).toBe(1);
  });

  it('leaves a compaction request without metadata unplaced unless its digest is marked', () => {
    const compaction = (content: string) =>
      identify(readChatRequest(body({ model: 'compactor', messages: [{ role: 'user', content }] }), ['compactor']));
    expect(compaction('digest')).toEqual({ runId: null, turn: null });
    expect(compaction(`digest ${runMarker('r-1')}`)).toEqual({ runId: 'r-1', turn: null });
  });
});
