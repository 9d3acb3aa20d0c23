/**
 * The mocks as a standalone HTTP server on loopback, for a kernel in another process (another
 * worker, the Go production kernel, k6). Requests go through the same msw handlers
 * (getResponse); the model API is served at {url}/v1 and the sandbox at {url}/sandbox/v1.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { getResponse, type RequestHandler } from 'msw';
import { createMockProvider, type MockProvider, type MockProviderOptions } from '../mock-provider.ts';

export interface MockServerOptions extends Omit<MockProviderOptions, 'modelBaseUrl' | 'sandboxBaseUrl'> {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
}

export interface MockServer extends MockProvider {
  /** http://host:port */
  url: string;
  /** Requests received and not yet answered (chaos waits for none before it kills a worker it cannot ask). */
  requestsInFlight(): number;
  close(): Promise<void>;
}

export async function startMockServer(options: MockServerOptions): Promise<MockServer> {
  const host = options.host ?? '127.0.0.1';
  let handlers: RequestHandler[] = [];
  let inFlight = 0;
  const server = createServer((req, res) => {
    inFlight++;
    res.once('close', () => inFlight--);
    serve(handlers, origin, req, res).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: error.message } }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const provider = createMockProvider({
    ...options,
    modelBaseUrl: `${origin}/v1`,
    sandboxBaseUrl: `${origin}/sandbox/v1`,
  });
  handlers = provider.handlers;
  return {
    ...provider,
    url: origin,
    requestsInFlight: () => inFlight,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function serve(handlers: RequestHandler[], origin: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  // A client that hangs up aborts the request, which ends a hanging (timeout) fault.
  const aborter = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) aborter.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const method = req.method ?? 'GET';
  const request = new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    body: method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks),
    signal: aborter.signal,
  });
  const response = await getResponse(handlers, request);
  if (!response) {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        error: { message: `no mock for ${method} ${req.url}` },
      }),
    );
    return;
  }
  if (response.type === 'error') {
    res.socket?.destroy();
    return;
  }
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) {
    res.end();
    return;
  }
  Readable.fromWeb(response.body as never).pipe(res);
}
