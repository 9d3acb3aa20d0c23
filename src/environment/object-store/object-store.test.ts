import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { PutObjectCommand, S3Client, type S3ServiceException } from '@aws-sdk/client-s3';
import { ExternalStorage, type Payload } from '@temporalio/common';
import {
  decodeReferencePayload,
  ExternalStorageRunner,
  isReferencePayload,
  loadDataConverter,
} from '@temporalio/common/lib/internal-non-workflow/index.js';
import { S3StorageDriver } from '@temporalio/external-storage-s3';
import { temporal } from '@temporalio/proto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startToxiproxy } from '../../chaos/index.ts';
import { type ObjectStore, ObjectStoreError, resolveS3ServerBinary, startObjectStore } from '../index.ts';
import { driverClientOver, s3Client } from './driver-client.ts';

const PayloadProto = temporal.api.common.v1.Payload;
const THRESHOLD = 64 * 1024;
const TARGET = { kind: 'workflow', namespace: 'default', type: 'agentRun', id: 'run-1', runId: 'r1' } as const;

/** The SDK's own path from a value to what goes on the wire: the data converter, then External Storage. */
function converterOver(store: ObjectStore, endpoint?: string) {
  const converter = loadDataConverter({
    externalStorage: new ExternalStorage({
      drivers: [new S3StorageDriver({ client: store.driverClient(endpoint), bucket: store.bucket })],
      payloadSizeThreshold: THRESHOLD,
    }),
  });
  const runner = new ExternalStorageRunner(converter.externalStorage as ExternalStorage);
  return {
    toPayload: (value: unknown): Payload => converter.payloadConverter.toPayload(value),
    store: (payloads: Payload[]) => runner.store(payloads, { target: TARGET }),
    retrieve: (payloads: Payload[]) => runner.retrieve(payloads),
  };
}

/** A conversation of `bytes` bytes, not ASCII, as the kernel's payloads are. */
function conversation(bytes: number, seed: string): string {
  const line = `${seed} ассистент 助手 🤖 ${'x'.repeat(60)}\n`;
  return line.repeat(Math.ceil(bytes / Buffer.byteLength(line))).slice(0, bytes);
}

const encoded = (payload: Payload) => Buffer.from(PayloadProto.encode(payload).finish());
/** The error `promise` fails with; a promise that does not fail fails the test. */
const errorOf = (promise: Promise<unknown>): Promise<Error> =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as Error,
  );

describe('startObjectStore', () => {
  let store: ObjectStore;
  beforeAll(async () => {
    store = await startObjectStore({ onProgress: () => {} });
  });
  afterAll(() => store?.stop());

  it('offloads a payload over the threshold through the S3 driver and gives it back byte for byte', async () => {
    const codec = converterOver(store);
    const big = codec.toPayload({ messages: conversation(300_000, 'big') });
    const small = codec.toPayload({ messages: conversation(1_000, 'small') });
    const before = await store.usage();

    const [stored, inline] = await codec.store([big, small]);
    if (!stored || !inline) throw new Error('two payloads in, two out');
    expect(isReferencePayload(stored)).toBe(true);
    expect(Buffer.from(stored.metadata?.messageType ?? []).toString()).toBe('temporal.api.sdk.v1.ExternalStorageReference');
    // Under the threshold the payload stays as it was: the reference check above can fail.
    expect(isReferencePayload(inline)).toBe(false);
    expect(encoded(inline).equals(encoded(small))).toBe(true);
    const reference = decodeReferencePayload(stored);
    expect(reference.driverName).toBe('aws.s3driver');
    expect(reference.claimData.key).toMatch(/^v0\/ns\/default\/wt\/agentRun\/wi\/run-1\/ri\/r1\/d\/sha256\/[0-9a-f]{64}$/);
    expect(reference.sizeBytes).toBe(encoded(big).length);

    const [back] = await codec.retrieve([stored]);
    if (!back) throw new Error('one reference in, one payload out');
    expect(encoded(back).equals(encoded(big))).toBe(true);

    const after = await store.usage();
    expect(after).toEqual({ objects: before.objects + 1, bytes: before.bytes + reference.sizeBytes });
    expect(await store.listObjects()).toContainEqual({ key: reference.claimData.key, bytes: reference.sizeBytes });
    // The same payload again: the driver finds its object (HEAD) and does not store a second one.
    await codec.store([big]);
    expect(await store.usage()).toEqual(after);
  });

  it('fails a retrieve once its object is deleted, with the S3 error as the cause', async () => {
    const codec = converterOver(store);
    const [kept, doomed] = await codec.store([
      codec.toPayload(conversation(100_000, 'kept')),
      codec.toPayload(conversation(100_000, 'doomed')),
    ]);
    if (!kept || !doomed) throw new Error('two payloads in, two out');
    const key = decodeReferencePayload(doomed).claimData.key as string;
    const hash = key.split('/').at(-1) as string;

    expect(await store.deleteObjects({ keyContains: hash })).toEqual([key]);
    expect(await store.deleteObjects({ keyContains: hash })).toEqual([]);
    const error = await errorOf(codec.retrieve([doomed]));
    expect(error.message).toBe(
      `S3StorageDriver retrieve failed [bucket=${store.bucket}, key=${key}, endpoint=${store.endpoint}, region=us-east-1]`,
    );
    expect((error.cause as Error).message).toBe(`S3 GET ${store.bucket}/${key} at ${store.endpoint}: NoSuchKey (HTTP 404)`);
    expect(error.cause).toBeInstanceOf(ObjectStoreError);
    // The other object is still there.
    expect((await codec.retrieve([kept]))[0]).toBeDefined();
  });

  it("gives back what the bucket holds: a changed object fails the driver's hash check", async () => {
    const codec = converterOver(store);
    const [stored] = await codec.store([codec.toPayload(conversation(80_000, 'tampered'))]);
    if (!stored) throw new Error('one payload in, one out');
    const { key } = decodeReferencePayload(stored).claimData as { key: string };
    await store.driverClient().putObject(store.bucket, key, new TextEncoder().encode('not the payload'));
    const error = await errorOf(codec.retrieve([stored]));
    expect(error.message).toMatch(
      /^S3StorageDriver integrity check failed \[bucket=longrun, key=.*\]: expected sha256:[0-9a-f]{64}, got sha256:[0-9a-f]{64}$/,
    );
  });

  it("uploads a stream: the SDK's default checksums (aws-chunked with a trailer) are refused by gofakes3, WHEN_REQUIRED is not", async () => {
    const body = () => Readable.from([Buffer.alloc(70_000, 7)]);
    const put = (client: S3Client, Key: string) =>
      client.send(new PutObjectCommand({ Bucket: store.bucket, Key, Body: body(), ContentLength: 70_000 }));
    const defaults = new S3Client({
      endpoint: store.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'longrun', secretAccessKey: 'longrun' },
    });
    const ours = s3Client(store.endpoint);
    try {
      const refused = await errorOf(put(defaults, 'stream/default'));
      expect(`${refused.name} ${(refused as S3ServiceException).$metadata.httpStatusCode}`).toBe('MissingContentLength 411');
      await put(ours, 'stream/ours');
      expect((await store.listObjects()).filter((o) => o.key.startsWith('stream/'))).toEqual([{ key: 'stream/ours', bytes: 70_000 }]);
    } finally {
      defaults.destroy();
      ours.destroy();
    }
  });

  it('counts and deletes past a page of the listing (1000 keys), the first `count` in key order', async () => {
    const client = store.driverClient();
    const keys = Array.from({ length: 1005 }, (_, i) => `paged/${String(i).padStart(4, '0')}`);
    for (let i = 0; i < keys.length; i += 50) {
      await Promise.all(keys.slice(i, i + 50).map((key) => client.putObject(store.bucket, key, new Uint8Array([1, 2, 3]))));
    }
    expect((await store.listObjects()).filter((o) => o.key.startsWith('paged/'))).toHaveLength(1005);
    expect(await store.deleteObjects({ keyContains: 'paged/', count: 1001 })).toEqual(keys.slice(0, 1001));
    expect((await store.listObjects()).filter((o) => o.key.startsWith('paged/')).map((o) => o.key)).toEqual(keys.slice(1001));
    expect(await client.objectExists(store.bucket, 'paged/1004')).toBe(true);
    expect(await client.objectExists(store.bucket, 'paged/0000')).toBe(false);
  });
});

describe('a store behind a Toxiproxy link', () => {
  it('takes the driver through the link, and names the link when it is down', async () => {
    const [store, toxiproxy] = await Promise.all([startObjectStore({ onProgress: () => {} }), startToxiproxy()]);
    try {
      const link = `http://${await toxiproxy.proxy('s3', store.endpoint.slice('http://'.length))}`;
      const codec = converterOver(store, link);
      const original = codec.toPayload(conversation(100_000, 'linked'));
      const [stored] = await codec.store([original]);
      if (!stored) throw new Error('one payload in, one out');
      expect((await store.usage()).objects).toBe(1);
      await toxiproxy.setEnabled('s3', false);
      const error = await errorOf(codec.retrieve([stored]));
      const { key } = decodeReferencePayload(stored).claimData as { key: string };
      expect(error.message).toBe(`S3StorageDriver retrieve failed [bucket=longrun, key=${key}, endpoint=${link}, region=us-east-1]`);
      // The store itself is up: the failure is the link's, and says nothing of the server.
      expect((error.cause as Error).message).toMatch(new RegExp(`^S3 GET longrun/${key} at ${link}: \\w+: [^()]+$`));
      await toxiproxy.setEnabled('s3', true);
      const [back] = await codec.retrieve([stored]);
      expect(back && encoded(back).equals(encoded(original))).toBe(true);
    } finally {
      await toxiproxy.close();
      await store.stop();
    }
  });
});

describe('a store that is gone', () => {
  let store: ObjectStore | undefined;
  afterEach(() => store?.stop());

  it('names the server and how it ended when it was stopped', async () => {
    store = await startObjectStore({ onProgress: () => {} });
    const codec = converterOver(store);
    const payload = codec.toPayload(conversation(100_000, 'late'));
    await store.stop();
    const error = await errorOf(codec.store([payload]));
    const binary = (await resolveS3ServerBinary({ build: false })).path;
    const address = store.endpoint.slice('http://'.length);
    expect(error.message).toMatch(
      /^S3StorageDriver store failed \[bucket=longrun, key=v0\/ns\/default\/.*, endpoint=http:\/\/127\.0\.0\.1:\d+, region=us-east-1\]$/,
    );
    expect((error.cause as Error).message).toMatch(
      new RegExp(
        `^S3 HEAD longrun/v0/.* at ${store.endpoint}: Error: connect ECONNREFUSED ${address} \\(the S3 server ${binary} at ${address} exited \\(code 0\\)\\)$`,
      ),
    );
  });

  it('names the server and the signal when it was killed', async () => {
    store = await startObjectStore({ onProgress: () => {} });
    process.kill(store.pid, 'SIGKILL');
    const error = await errorOf(store.usage());
    expect(error).toBeInstanceOf(ObjectStoreError);
    expect(error.message).toMatch(
      /^S3 list longrun at http:\/\/127\.0\.0\.1:\d+: Error: connect ECONNREFUSED .* \(the S3 server \S+ at \S+ exited \(signal SIGKILL\)\)$/,
    );
  });
});

describe('a store that will not start', () => {
  afterEach(() => {
    delete process.env.LONGRUN_S3_SERVER_BIN;
  });

  it('says so in one line, naming the binary and the address, when the port is taken', async () => {
    const taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const port = (taken.address() as { port: number }).port;
    try {
      const binary = (await resolveS3ServerBinary({ build: false })).path;
      const error = await errorOf(startObjectStore({ port }));
      expect(error).toBeInstanceOf(ObjectStoreError);
      expect(error.message).toBe(
        `S3 server ${binary} on 127.0.0.1:${port}: exited (code 1): s3-server: listen tcp 127.0.0.1:${port}: bind: address already in use before it was ready`,
      );
    } finally {
      taken.close();
    }
  });

  it('names the variable when LONGRUN_S3_SERVER_BIN is not an executable file', async () => {
    process.env.LONGRUN_S3_SERVER_BIN = '/nonexistent/s3-server';
    const error = await errorOf(startObjectStore());
    expect(error).toBeInstanceOf(ObjectStoreError);
    expect(error.message).toBe('LONGRUN_S3_SERVER_BIN=/nonexistent/s3-server is not an executable file');
  });

  it('says so when LONGRUN_S3_SERVER_BIN names a program that is no S3 server', async () => {
    process.env.LONGRUN_S3_SERVER_BIN = '/bin/true';
    const error = await errorOf(startObjectStore());
    expect(error.message).toBe('S3 server /bin/true on 127.0.0.1:0: exited (code 0) before it was ready');
  });
});

describe('tools/s3-server', () => {
  it('is built at the pinned gofakes3 version', async () => {
    const binary = await resolveS3ServerBinary({ onProgress: () => {} });
    const { stdout } = await promisify(execFile)(binary.path, ['--version']);
    expect(stdout.trim()).toBe('s3-server (longrun) gofakes3 v1.2.0');
  });

  it('refuses to listen anywhere but loopback', async () => {
    const binary = await resolveS3ServerBinary({ onProgress: () => {} });
    const failed = await promisify(execFile)(binary.path, ['--host', '0.0.0.0']).catch((e: { stderr: string }) => e);
    expect((failed as { stderr: string }).stderr.trim()).toBe('s3-server: --host "0.0.0.0": want a loopback address');
  });

  it('exits cleanly on SIGTERM', async () => {
    const binary = await resolveS3ServerBinary({ onProgress: () => {} });
    const child = spawn(binary.path, ['--port', '0'], { stdio: ['pipe', 'pipe', 'inherit'] });
    await once(child.stdout, 'data');
    child.kill('SIGTERM');
    const [code, signal] = await once(child, 'exit');
    expect({ code, signal }).toEqual({ code: 0, signal: null });
  });
});

describe('the S3 clients', () => {
  /** stdout and stderr of a Node process that runs `code` (ESM, TypeScript through tsx). */
  const node = async (code: string) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: process.cwd() });

  it("are built without the SDK's warning about Node < 22, and leave the environment as it was", async () => {
    const ours = await node(
      `const { s3Client } = await import(${JSON.stringify(new URL('./driver-client.ts', import.meta.url).pathname)});
       s3Client('http://127.0.0.1:1');
       console.log(process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ?? 'unset');`,
    );
    expect(ours).toEqual({ stdout: 'unset\n', stderr: '' });
    // A client built as the SDK's own documentation does: the warning the one above does not print.
    const plain = await node(`const { S3Client } = await import('@aws-sdk/client-s3'); new S3Client({ region: 'us-east-1' });`);
    expect(plain.stderr.split('\n')[0]).toMatch(Number(process.versions.node.split('.')[0]) < 22 ? /NodeVersionSupportWarning/ : /^$/);
  });

  it('fail a request to a store that takes the connection and never answers, instead of waiting for ever', async () => {
    // A worker's workflow task or activity waits on this request with no deadline of its own.
    const silent = createServer(() => {}).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    try {
      const { port } = silent.address() as { port: number };
      const endpoint = `http://127.0.0.1:${port}`;
      const client = driverClientOver(s3Client(endpoint, { connectionMs: 5_000, idleMs: 200 }), endpoint, () => undefined);
      await expect(client.getObject('longrun', 'k')).rejects.toThrow(
        new RegExp(`^S3 GET longrun/k at ${endpoint}: TimeoutError: .*timed out after 200 ms of inactivity`),
      );
    } finally {
      silent.close();
    }
  });
});
