import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheDir } from '../../shared/cache.ts';
import { chromiumPackageRoot, resolveChromium } from './chromium.ts';

const packageVersion = (JSON.parse(readFileSync(join(chromiumPackageRoot(), 'package.json'), 'utf8')) as { version: string }).version;

describe('resolveChromium', () => {
  it("unpacks the npm package's Chromium into the cache when CHROMIUM_PATH is unset, with no system browser on the PATH", async () => {
    const resolved = await resolveChromium({ PATH: '/nonexistent' });
    expect(resolved).toEqual({ path: join(cacheDir('chromium'), packageVersion, 'chromium'), source: 'npm' });
    // The package's major version is the browser's (147.0.0 ships Chromium 147.x).
    const version = execFileSync(resolved.path, ['--version'], { encoding: 'utf8' });
    expect(version).toMatch(new RegExp(`^Chromium ${packageVersion.split('.')[0]}\\.`));
  });

  it('uses CHROMIUM_PATH when it names an executable, and refuses one that does not exist', async () => {
    const npm = await resolveChromium({});
    await expect(resolveChromium({ CHROMIUM_PATH: npm.path })).resolves.toEqual({ path: npm.path, source: 'env' });
    await expect(resolveChromium({ CHROMIUM_PATH: '/nonexistent/chromium' })).rejects.toThrow(
      'CHROMIUM_PATH=/nonexistent/chromium is not an executable file',
    );
  });
});
