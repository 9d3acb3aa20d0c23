/**
 * How workers connect to the server. The SDK's native connection gzips every gRPC message it
 * sends and asks for gzip back; to a server on this machine that is CPU on both ends for no
 * gain (a profile of the production month found ~10% of the embedded server's CPU in gzip
 * alone, with the worker's compressing of its 1-2 MB requests and completions on top). So a
 * worker of a loopback server sends and receives plain messages; over a network, where a
 * production worker would gain from it, the SDK's default stays.
 */
import type { NativeConnectionOptions } from '@temporalio/worker';

/** The connection options this file decides for a server at `address` (host:port). */
export function workerConnectionOptions(address: string): Pick<NativeConnectionOptions, 'grpcCompression'> {
  return isLoopback(address) ? { grpcCompression: { codec: 'none' } } : {};
}

/** 127.0.0.0/8, ::1 and localhost, with or without a port, IPv6 in brackets or not. */
export function isLoopback(address: string): boolean {
  const host = hostOf(address).toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function hostOf(address: string): string {
  const bracketed = /^\[([^\]]+)\]/.exec(address);
  if (bracketed) return bracketed[1] as string;
  // A bare IPv6 address has more than one colon and no port.
  if ((address.match(/:/g) ?? []).length > 1) return address;
  return address.split(':')[0] ?? address;
}
