import { HttpResponse } from 'msw';

/** An OpenAI-style error body; bad input names the field in its message. */
export function jsonError(status: number, message: string): { response: Response; bytes: number } {
  const body = JSON.stringify({
    error: { message, type: 'invalid_request_error', code: status },
  });
  return {
    response: new HttpResponse(body, {
      status,
      headers: { 'content-type': 'application/json' },
    }),
    bytes: Buffer.byteLength(body),
  };
}
