import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveToxiproxyBinary, ToxiproxyBinaryError } from './index.ts';

describe('resolveToxiproxyBinary', () => {
  afterEach(() => {
    delete process.env.LONGRUN_TOXIPROXY_BIN;
  });

  it('builds tools/toxiproxy (or finds its cached build) at the pinned Toxiproxy version', async () => {
    const binary = await resolveToxiproxyBinary({ onProgress: () => {} });
    const { stdout } = await promisify(execFile)(binary.path, ['--version']);
    expect(stdout.trim()).toBe('toxiproxy (longrun) v2.12.0');
  });

  it('names the variable when LONGRUN_TOXIPROXY_BIN is not an executable file', async () => {
    process.env.LONGRUN_TOXIPROXY_BIN = '/nonexistent/toxiproxy';
    const error = await resolveToxiproxyBinary().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToxiproxyBinaryError);
    expect((error as Error).message).toBe('LONGRUN_TOXIPROXY_BIN=/nonexistent/toxiproxy is not an executable file');
  });

  it('refuses to listen anywhere but loopback', async () => {
    const binary = await resolveToxiproxyBinary({ onProgress: () => {} });
    const failed = await promisify(execFile)(binary.path, ['--host', '0.0.0.0']).catch((e: { stderr: string }) => e);
    expect((failed as { stderr: string }).stderr.trim()).toBe('toxiproxy: --host "0.0.0.0": want a loopback address');
  });
});
