/**
 * A request for a run another replica owns, passed to that owner as it came (method, path,
 * headers, body bytes) and its answer piped back as it comes (status, headers, streamed body).
 * A connection the owner drops reaches the client as a dropped connection; a client that hangs
 * up aborts the forwarded request; an owner that cannot be reached is answered 502, never
 * answered here in its place (that would split the run's state silently).
 */
import { type Agent, type IncomingHttpHeaders, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import type { Answer } from '../faults/fault-response.ts';

/** Marks a forwarded request: its receiver answers it itself, whatever its own peer list says (no loops). */
export const FORWARDED_HEADER = 'x-longrun-forwarded';

/** Per hop, not passed on. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive']);

export interface Forwarding {
  /** The owner's address. */
  owner: string;
  /** This replica's address, sent in FORWARDED_HEADER. */
  self: string;
  agent: Agent;
  /** The 502 when the owner cannot be reached, in the shape of the API at the request's path. */
  unreachable: (message: string) => Answer;
}

export function forward(req: IncomingMessage, res: ServerResponse, body: Buffer, to: Forwarding): void {
  const upstream = request(new URL(req.url ?? '/', to.owner), {
    method: req.method,
    headers: { ...passed(req.headers), [FORWARDED_HEADER]: to.self },
    agent: to.agent,
  });
  // Whether the owner was reached: an error after that is a connection it dropped, before it one it never took.
  let reached = false;
  upstream.once('socket', (socket) => {
    if (!socket.connecting) reached = true;
    else socket.once('connect', () => (reached = true));
  });
  upstream.once('response', (answer) => {
    res.writeHead(answer.statusCode ?? 502, passed(answer.headers));
    pipeline(answer, res, (error) => {
      if (error) res.destroy();
    });
  });
  upstream.once('error', (error: NodeJS.ErrnoException) => {
    if (reached || res.headersSent || res.destroyed) return void res.destroy();
    const answer = to.unreachable(
      `the mock replica ${to.owner} that owns this run could not be reached from ${to.self}: ${error.code ?? error.message}`,
    );
    res.writeHead(answer.status, { 'content-type': answer.contentType, ...answer.headers });
    res.end(answer.body);
  });
  res.once('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  upstream.end(body);
}

function passed(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
}
