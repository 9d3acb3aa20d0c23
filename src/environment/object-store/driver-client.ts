/**
 * The S3 driver's client (`S3StorageDriverClient` of @temporalio/external-storage-s3) over the
 * AWS SDK's own S3 client, for an S3 endpoint on loopback: path-style addressing (no bucket in
 * the host name), static dummy credentials, region us-east-1.
 */
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { S3RequestOptions, S3StorageDriverClient } from '@temporalio/external-storage-s3';
import { ObjectStoreError } from './s3-server-binary.ts';

export const REGION = 'us-east-1';

/**
 * How long a request may wait for a connection, and then for its next byte, before it fails.
 * The SDK's defaults wait for ever, and neither the worker nor the S3 driver passes an abort
 * signal: a store that accepts a connection and never answers would hold a workflow task or an
 * activity for good. Failed instead, the task is retried as any failed one.
 */
export const STORE_TIMEOUTS = { connectionMs: 5_000, idleMs: 30_000 };

export function s3Client(endpoint: string, timeouts: typeof STORE_TIMEOUTS = STORE_TIMEOUTS): S3Client {
  return withoutNodeVersionWarning(
    () =>
      new S3Client({
        endpoint,
        region: REGION,
        forcePathStyle: true,
        credentials: { accessKeyId: 'longrun', secretAccessKey: 'longrun' },
        requestHandler: { connectionTimeout: timeouts.connectionMs, socketTimeout: timeouts.idleMs },
        // The SDK's default since 3.729 adds a CRC32 checksum to every upload, and streams a body
        // of unknown length as `aws-chunked` with the checksum in a trailer: gofakes3 refuses that
        // (411 MissingContentLength). It never verifies a checksum either (it keeps the header
        // as metadata and echoes it), and the S3 driver checks each payload's sha256 itself.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
  );
}

const NODE_WARNING_OFF = 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED';

/**
 * The SDK warns once per process, on Node < 22, that its releases after January 2027 will need
 * Node 22. The pinned release runs on Node 20 (package.json "//"), and a warning on every run
 * would say nothing to a user. Its own switch, set only while the first client is built, so
 * that no child process inherits it.
 */
function withoutNodeVersionWarning<T>(build: () => T): T {
  const before = process.env[NODE_WARNING_OFF];
  process.env[NODE_WARNING_OFF] = 'true';
  try {
    return build();
  } finally {
    if (before === undefined) delete process.env[NODE_WARNING_OFF];
    else process.env[NODE_WARNING_OFF] = before;
  }
}

/** A failed request on one line: the S3 error code and HTTP status, or the network's error. */
export function describeFailure(error: unknown): string {
  if (error instanceof S3ServiceException) {
    // gofakes3's error bodies carry no message the SDK reads: it says "UnknownError".
    const message = error.message && error.message !== 'UnknownError' && error.message !== error.name ? `: ${error.message}` : '';
    return `${error.name} (HTTP ${error.$metadata.httpStatusCode})${message}`;
  }
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Why a request failed, on one line: the store's own explanation when it has one. */
export type Explain = (endpoint: string) => string | undefined;

/** `client` sends every request to `endpoint`; `explain` adds what the store knows of a failure. */
export function driverClientOver(client: S3Client, endpoint: string, explain: Explain): S3StorageDriverClient {
  const fail = (operation: string, bucket: string, key: string, error: unknown): never => {
    const why = explain(endpoint);
    throw new ObjectStoreError(`S3 ${operation} ${bucket}/${key} at ${endpoint}: ${describeFailure(error)}${why ? ` (${why})` : ''}`, {
      cause: error,
    });
  };
  return {
    async putObject(bucket, key, data, options?: S3RequestOptions) {
      try {
        await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: data }), options);
      } catch (error) {
        fail('PUT', bucket, key, error);
      }
    },
    async objectExists(bucket, key, options?: S3RequestOptions) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }), options);
        return true;
      } catch (error) {
        if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return false;
        return fail('HEAD', bucket, key, error);
      }
    },
    async getObject(bucket, key, options?: S3RequestOptions) {
      try {
        const response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }), options);
        if (!response.Body) throw new Error('the response has no body');
        return await response.Body.transformToByteArray();
      } catch (error) {
        return fail('GET', bucket, key, error);
      }
    },
    describe: () => ({ endpoint, region: REGION }),
  };
}
