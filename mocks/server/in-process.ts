/**
 * The mocks inside this process (msw/node): every fetch or http request is matched against
 * the handlers, and anything unmatched is an error, so that a run can never reach a real
 * provider.
 */
import { setupServer } from 'msw/node';
import { createMockProvider, type MockProvider, type MockProviderOptions } from '../mock-provider.ts';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export interface InProcessMocks extends MockProvider {
  close(): void;
}

export function startInProcessMocks(options: MockProviderOptions): InProcessMocks {
  const provider = createMockProvider(options);
  const server = setupServer(...provider.handlers);
  // msw tees every mocked body to hand a copy to its listeners; a tee's branch cancels only
  // once both have, so a client that cancels a body it does not read (openai's and Anthropic's
  // SDKs before a retry) would wait forever unless the copy is let go.
  server.events.on('response:mocked', ({ response }) => {
    response.body?.cancel().catch(() => {});
  });
  // A request the mocks do not answer is an error, but for a service of the harness's own on
  // loopback (the S3 store of External Storage), which it reaches as any worker would.
  server.listen({
    onUnhandledRequest(request, print) {
      if (!LOOPBACK_HOSTS.has(new URL(request.url).hostname)) print.error();
    },
  });
  return { ...provider, close: () => server.close() };
}
