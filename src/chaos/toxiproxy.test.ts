import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startToxiproxy, type Toxiproxy } from './toxiproxy.ts';

let upstream: Server;
let toxiproxy: Toxiproxy;
let proxied: string;

beforeAll(async () => {
  upstream = createServer((_, res) => res.end('pong'));
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  toxiproxy = await startToxiproxy();
  proxied = await toxiproxy.proxy('upstream', `127.0.0.1:${(upstream.address() as AddressInfo).port}`);
});

afterAll(async () => {
  await toxiproxy?.close();
  upstream?.close();
});

/** A fresh connection each time, so that a toxic meets it from its start. */
const get = () =>
  fetch(`http://${proxied}/`, { headers: { connection: 'close' }, signal: AbortSignal.timeout(5_000) }).then((r) => r.text());

describe('Toxiproxy, built from tools/toxiproxy and driven over its API', () => {
  it('listens on loopback only and proxies to the upstream', async () => {
    expect(toxiproxy.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(proxied).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(await get()).toBe('pong');
  });

  it('takes a link down and brings it back', async () => {
    await toxiproxy.setEnabled('upstream', false);
    await expect(get()).rejects.toThrow();
    await toxiproxy.setEnabled('upstream', true);
    expect(await get()).toBe('pong');
  });

  it('resets connections while a reset_peer toxic is on, and not after it is removed', async () => {
    await toxiproxy.addToxic('upstream', { name: 'reset', type: 'reset_peer', attributes: { timeout: 0 } });
    await expect(get()).rejects.toThrow();
    await toxiproxy.removeToxic('upstream', 'reset');
    expect(await get()).toBe('pong');
  });

  it('keeps the attributes it was given, and says which toxic it does not know', async () => {
    await toxiproxy.addToxic('upstream', { name: 'slow', type: 'latency', stream: 'upstream', attributes: { latency: 50, jitter: 5 } });
    const toxics = (await (await fetch(`${toxiproxy.apiUrl}/proxies/upstream/toxics`)).json()) as unknown[];
    expect(toxics).toEqual([
      expect.objectContaining({ name: 'slow', type: 'latency', stream: 'upstream', attributes: { latency: 50, jitter: 5 } }),
    ]);
    await toxiproxy.removeToxic('upstream', 'slow');
    await expect(toxiproxy.removeToxic('upstream', 'slow')).rejects.toThrow(
      /^Toxiproxy DELETE \/proxies\/upstream\/toxics\/slow: HTTP 404: /,
    );
  });
});
