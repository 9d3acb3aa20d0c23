/**
 * The mocks as a standalone HTTP server on loopback, for a kernel in another process (another
 * worker, the Go production kernel, k6). Requests go through the same msw handlers
 * (getResponse); the model API is served at {url}/v1 and the sandbox at {url}/sandbox/v1. A body
 * past the cap is answered 413 as it arrives, never held whole. GET {url}/longrun/records?run=ID
 * gives what the recorder holds of a run, so that a judge reads it from any replica. Given its
 * fleet (`peers`), a replica passes each request of a run another replica owns to that owner
 * (run-owner.ts, forward.ts), so that a run's state is kept in one place.
 */
import { Agent, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { getResponse, type RequestHandler } from 'msw';
import { BINARY_HEADER } from '../../src/contract/run-marker.ts';
import { badGatewayAt, type RequestRoute, runOfRequest, tooLargeAt } from '../handlers/index.ts';
import { createMockProvider, type MockProvider, type MockProviderOptions } from '../mock-provider.ts';
import type { MockRecorder } from '../recorder/mock-recorder.ts';
import { FORWARDED_HEADER, forward } from './forward.ts';
import { checkPeers, type Peers, runOwner } from './run-owner.ts';

/**
 * The default cap on a request body: far above any request a kernel or an agent sends (a
 * Temporal payload is at most 2 MiB, so a kernel's request is too; the spec's largest stay under
 * ~2 MB; Anthropic's API itself takes at most 32 MB), and bounded, so a runaway client cannot
 * grow the server by what it sends.
 */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;
/** How long a refused body is still read (and dropped), so that its client reads the 413 rather than a reset. */
const DRAIN_MS = 2_000;
/**
 * How long a connection to a peer is kept idle: less than a peer's keep-alive timeout (Node's 5 s),
 * so that a request is never passed on over a connection the peer is closing, which would reach
 * the client as a dropped connection the owner never meant. A connection in use is not cut by it.
 */
const FORWARD_IDLE_MS = 4_000;
/** Where a replica's records of one run are read: GET {url}/longrun/records?run=ID. */
export const RECORDS_PATH = '/longrun/records';

export interface MockServerOptions extends Omit<MockProviderOptions, 'modelBaseUrl' | 'sandboxBaseUrl'> {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** A request body past this many bytes is answered 413 (default DEFAULT_MAX_BODY_BYTES). */
  maxBodyBytes?: number;
  /**
   * The fleet this replica is one of: every replica's address as they reach each other (the same
   * list on each, its own included) and its own. A request of a run another replica owns is
   * answered by that owner, through this one. Default none: every request is answered here.
   */
  peers?: Peers;
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
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  // Checked before listening: a fleet that cannot route refuses to start.
  const fleet = options.peers
    ? { peers: checkPeers(options.peers), agent: new Agent({ keepAlive: true, timeout: FORWARD_IDLE_MS }) }
    : undefined;
  let served: Served | undefined;
  let inFlight = 0;
  const server = createServer((req, res) => {
    inFlight++;
    res.once('close', () => inFlight--);
    serve(served as Served, req, res).catch((error: Error) => {
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
  served = {
    handlers: provider.handlers,
    origin,
    recorder: provider.recorder,
    maxBodyBytes,
    compactionModels: options.compactionModels ?? [],
    ...(fleet ? { fleet } : {}),
  };
  return {
    ...provider,
    url: origin,
    requestsInFlight: () => inFlight,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
        fleet?.agent.destroy();
      }),
  };
}

interface Served {
  handlers: RequestHandler[];
  origin: string;
  recorder: MockRecorder;
  maxBodyBytes: number;
  compactionModels: readonly string[];
  fleet?: { peers: Peers; agent: Agent };
}

/** The body, or the bytes read when it passed `limit` (then the rest is not kept). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | { past: number }> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return Promise.resolve({ past: declared });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', reject);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      done();
      resolve({ past: size });
    };
    const onEnd = () => {
      done();
      resolve(Buffer.concat(chunks));
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', reject);
  });
}

/** 413 in the shape of the API at that path; the connection closes once the body stops coming or after a grace. */
function refuseTooLarge(served: Served, req: IncomingMessage, res: ServerResponse, bytes: number): void {
  const { pathname } = new URL(req.url ?? '/', served.origin);
  const sandbox = SANDBOX_TOOL.exec(pathname);
  const message = `request body of ${bytes.toLocaleString('en-US')} bytes or more is past the mock server's cap of ${sizeOf(served.maxBodyBytes)} (maxBodyBytes, longrun mock-server --max-body-bytes)`;
  const answer = tooLargeAt(modelPath(pathname), message);
  res.writeHead(answer.status, { 'content-type': answer.contentType, connection: 'close' });
  res.end(answer.body);
  req.resume();
  setTimeout(() => req.destroy(), DRAIN_MS).unref();
  served.recorder.record({
    target: sandbox ? 'sandbox' : 'agent',
    runId: null,
    binary: (req.headers[BINARY_HEADER] as string | undefined) ?? null,
    turn: null,
    model: null,
    tool: sandbox ? decodeURIComponent(sandbox[1] as string) : null,
    stream: false,
    requestBytes: bytes,
    responseBytes: Buffer.byteLength(answer.body),
    status: answer.status,
    fault: null,
    refusal: message,
  });
}

const SANDBOX_TOOL = /^\/sandbox\/v1\/tools\/([^/]+)$/;

/** The path under the model base URL (`/v1`), or null when the request is not the model API's. */
function modelPath(pathname: string): string | null {
  return pathname.startsWith('/v1/') ? pathname.slice('/v1'.length) : null;
}

/** The replica that owns the request's run; null when no run can be told (then it is answered here). */
function ownerOfRequest(served: Served, pathname: string, method: string | undefined, body: Buffer): string | null {
  const path = modelPath(pathname);
  const route: RequestRoute | null = path !== null ? { api: 'model', path } : SANDBOX_TOOL.test(pathname) ? { api: 'sandbox' } : null;
  if (method !== 'POST' || !route || !served.fleet) return null;
  const runId = runOfRequest(route, body.toString('utf8'), served.compactionModels);
  return runId === null ? null : runOwner(runId, served.fleet.peers.all);
}

/** "64 MiB", "4 KiB", or bytes. */
function sizeOf(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes.toLocaleString('en-US')} bytes`;
}

/**
 * The records of the run `?run=ID`, and the refusals no run could be told from (they count
 * against every run), as JSON: what `requests.accepted` reads of this replica.
 */
function serveRecords(recorder: MockRecorder, url: URL, req: IncomingMessage, res: ServerResponse): void {
  const runId = url.searchParams.get('run');
  const [status, body] =
    req.method !== 'GET'
      ? [405, { error: { message: `${RECORDS_PATH}: GET only, got ${req.method}` } }]
      : !runId
        ? [400, { error: { message: `${RECORDS_PATH}: the query names no run (?run=ID)` } }]
        : [200, recorder.records().filter((record) => record.runId === runId || (record.runId === null && record.refusal !== null))];
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function serve(served: Served, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { handlers, origin } = served;
  const url = new URL(req.url ?? '/', origin);
  if (url.pathname === RECORDS_PATH) return serveRecords(served.recorder, url, req, res);
  const body = await readBody(req, served.maxBodyBytes);
  if (!Buffer.isBuffer(body)) return refuseTooLarge(served, req, res, body.past);
  const owner = served.fleet && !req.headers[FORWARDED_HEADER] ? ownerOfRequest(served, url.pathname, req.method, body) : null;
  if (owner && served.fleet && owner !== served.fleet.peers.self) {
    const { self } = served.fleet.peers;
    const path = modelPath(url.pathname);
    return forward(req, res, body, { owner, self, agent: served.fleet.agent, unreachable: (message) => badGatewayAt(path, message) });
  }
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
  const request = new Request(url, {
    method,
    headers,
    body: method === 'GET' || method === 'HEAD' ? undefined : body,
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
