/**
 * An S3 API server on loopback (tools/s3-server: gofakes3, objects in memory) with one bucket,
 * for the SDK's External Storage: workers offload payloads to it through the S3 driver, tests
 * count what it holds and delete objects to see a retrieve fail.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import {
  CreateBucketCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  type ListObjectsV2CommandOutput,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { S3StorageDriverClient } from '@temporalio/external-storage-s3';
import { childEnv } from '../../shared/child-env.ts';
import type { ResolveOptions } from '../go-program.ts';
import { describeFailure, driverClientOver, s3Client } from './driver-client.ts';
import { ObjectStoreError, resolveS3ServerBinary } from './s3-server-binary.ts';

export interface ObjectStoreOptions extends ResolveOptions {
  /** The bucket created at the start (default `longrun`). */
  bucket?: string;
  /** The loopback port to listen on (default: a free one the server picks, without a race). */
  port?: number;
}

export interface StoredObject {
  key: string;
  bytes: number;
}

export interface ObjectStore {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  bucket: string;
  /** The server's process: a chaos step may kill it. */
  pid: number;
  /**
   * The S3 driver's client; `endpoint` sends its requests elsewhere, to a Toxiproxy link in
   * front of the store for one.
   */
  driverClient(endpoint?: string): S3StorageDriverClient;
  /** Every object in the bucket, by key. */
  listObjects(): Promise<StoredObject[]>;
  usage(): Promise<{ objects: number; bytes: number }>;
  /**
   * Deletes the objects whose key contains `keyContains` (all when omitted), the first `count`
   * of them in key order when given; returns their keys.
   */
  deleteObjects(filter?: { keyContains?: string; count?: number }): Promise<string[]>;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;
/** DeleteObjects takes at most this many keys per request. */
const DELETE_BATCH = 1000;

export async function startObjectStore(options: ObjectStoreOptions = {}): Promise<ObjectStore> {
  const bucket = options.bucket ?? 'longrun';
  const binary = await resolveS3ServerBinary(options);
  const requested = `127.0.0.1:${options.port ?? 0}`;
  // stdin stays open: the server exits when it closes, that is, when this process is gone. A
  // group of its own: a Ctrl-C to longrun's group must not take the store from workers that
  // still offload while longrun stops them.
  const child = spawn(binary.path, ['--host', '127.0.0.1', '--port', String(options.port ?? 0)], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: childEnv(),
    detached: true,
  });
  const life = watch(child);
  const address = await ready(child, life).catch((error: Error) => {
    child.kill('SIGKILL');
    throw new ObjectStoreError(`S3 server ${binary.path} on ${requested}: ${error.message}`);
  });
  const endpoint = `http://${address}`;
  /** What a failed request is told about the server, when it is no longer running. */
  const explain = () => (life.exited ? `the S3 server ${binary.path} at ${address} ${life.exited}` : undefined);
  const clients: S3Client[] = [];
  const newClient = (at: string) => {
    const client = s3Client(at);
    clients.push(client);
    return client;
  };
  const admin = newClient(endpoint);
  /** Runs a request of the store's own; a failure names the server and what became of it. */
  const call = async <T>(what: string, request: () => Promise<T>): Promise<T> => {
    try {
      return await request();
    } catch (error) {
      const why = explain();
      throw new ObjectStoreError(`S3 ${what} at ${endpoint}: ${describeFailure(error)}${why ? ` (${why})` : ''}`, { cause: error });
    }
  };
  const listObjects = async (): Promise<StoredObject[]> => {
    const objects: StoredObject[] = [];
    let token: string | undefined;
    for (;;) {
      const page: ListObjectsV2CommandOutput = await call(`list ${bucket}`, () =>
        admin.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token })),
      );
      for (const object of page.Contents ?? []) objects.push({ key: object.Key ?? '', bytes: object.Size ?? 0 });
      // Only IsTruncated says whether a page follows: this server names a next token on a last
      // page that happens to be full.
      if (!page.IsTruncated) return objects;
      token = page.NextContinuationToken;
      if (!token) throw new ObjectStoreError(`S3 list ${bucket} at ${endpoint}: a truncated page without a continuation token`);
    }
  };

  try {
    await call(`create bucket ${bucket}`, () => admin.send(new CreateBucketCommand({ Bucket: bucket })));
  } catch (error) {
    await stopServer(child, life);
    throw error;
  }
  return {
    endpoint,
    bucket,
    pid: child.pid as number,
    driverClient: (at = endpoint) => driverClientOver(at === endpoint ? admin : newClient(at), at, explain),
    listObjects,
    async usage() {
      const objects = await listObjects();
      return { objects: objects.length, bytes: objects.reduce((sum, o) => sum + o.bytes, 0) };
    },
    async deleteObjects(filter = {}) {
      const matching = (await listObjects()).map((o) => o.key).filter((key) => key.includes(filter.keyContains ?? ''));
      const keys = filter.count === undefined ? matching : matching.slice(0, filter.count);
      for (let i = 0; i < keys.length; i += DELETE_BATCH) {
        const batch = keys.slice(i, i + DELETE_BATCH);
        const result = await call(`delete ${batch.length} objects from ${bucket}`, () =>
          admin.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } })),
        );
        const failed = result.Errors?.[0];
        if (failed) throw new ObjectStoreError(`S3 delete ${bucket}/${failed.Key} at ${endpoint}: ${failed.Code}: ${failed.Message}`);
      }
      return keys;
    },
    async stop() {
      for (const client of clients) client.destroy();
      await stopServer(child, life);
    },
  };
}

interface Life {
  /** How the process ended ("exited (code 1): <its last stderr line>"), once it has. */
  exited?: string;
  ended: Promise<void>;
}

function watch(child: ChildProcess): Life {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4096)));
  const life: Life = {
    ended: new Promise((resolve) => {
      child.on('error', (error) => {
        life.exited = `could not run: ${error.message}`;
        resolve();
      });
      child.on('exit', (code, signal) => {
        const last = stderr.trim().split('\n').at(-1);
        life.exited = `exited (${signal ? `signal ${signal}` : `code ${code}`})${last ? `: ${last}` : ''}`;
        resolve();
      });
    }),
  };
  return life;
}

/** The address of the `ready <host:port>` line. */
function ready(child: ChildProcess, life: Life): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    createInterface({ input: child.stdout as Readable }).on('line', (line) => {
      const [word, address] = line.split(' ');
      if (word !== 'ready' || !address) return;
      clearTimeout(timer);
      resolve(address);
    });
    // stderr's last line is complete only once the streams have closed.
    child.on('close', () => {
      clearTimeout(timer);
      reject(new Error(`${life.exited ?? 'exited'} before it was ready`));
    });
  });
}

async function stopServer(child: ChildProcess, life: Life): Promise<void> {
  if (life.exited) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await life.ended;
  clearTimeout(timer);
}
