import { describe, expect, it } from 'vitest';
import { faultOfMessage } from './from-history-failures.ts';

describe('faultOfMessage', () => {
  it('reads the status as the kernels and the SDKs word it', () => {
    expect(faultOfMessage('model answered HTTP 429 at http://127.0.0.1:1/v1/chat/completions: {}')).toEqual({
      kind: 'http-429',
      retryAfterSeconds: 0,
    });
    expect(faultOfMessage("Error code: 503 - {'error': {'message': 'overloaded'}}")).toEqual({ kind: 'http-503' });
    expect(faultOfMessage('POST /v1/chat/completions: status code 502')).toEqual({ kind: 'http-500' });
    expect(faultOfMessage('Activity task failed <- upstream said 529 overloaded_error')).toEqual({ kind: 'overloaded' });
    expect(faultOfMessage('model answered HTTP 504 at http://x')).toEqual({ kind: 'timeout', maxHangMs: 0 });
    expect(faultOfMessage('model unreachable at http://x: fetch failed')).toEqual({ kind: 'reset' });
  });

  it('names no fault where the mocks answer with none: a refused request, a message without a status', () => {
    expect(faultOfMessage('model answered HTTP 400 at http://x: context_length_exceeded')).toBeUndefined();
    expect(faultOfMessage('the tool crashed')).toBeUndefined();
  });
});
