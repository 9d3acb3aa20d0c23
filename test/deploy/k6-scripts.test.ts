/** The k6 scripts type-check against @types/k6 and the kernel's input type (checkJs), and a broken one does not. */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const K6 = join(ROOT, 'scenarios/k6');
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

async function tsc(project: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [TSC, '-p', project], { cwd: ROOT });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe('scenarios/k6 type-check (npx tsc -p scenarios/k6)', () => {
  it('passes for the scripts and their library', async () => {
    expect(await tsc(K6)).toEqual({ code: 0, output: '' });
  });

  it('fails a script that sends the kernel a wrong input or gives k6 a wrong option', async () => {
    // Under node_modules so that k6's types resolve as they do for the real scripts.
    const base = join(ROOT, 'node_modules/.cache');
    mkdirSync(base, { recursive: true });
    const dir = mkdtempSync(join(base, 'longrun-k6-check-'));
    try {
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({ extends: join(K6, 'tsconfig.json'), include: ['broken.js', join(K6, 'k6-globals.d.ts')] }),
      );
      writeFileSync(
        join(dir, 'broken.js'),
        `import http from 'k6/http';
import { startRunRequest } from ${JSON.stringify(join(K6, 'lib/start-run.js'))};
export default function () {
  const request = startRunRequest({ baseUrl: 'http://t:7243', workflowId: 'w', taskQueue: 'q', input: { runId: 'r', maxTurns: 3 } });
  http.request(request.method, request.url, request.body ?? null, { timeout: true });
}
`,
      );
      const { code, output } = await tsc(dir);
      expect(code).not.toBe(0);
      expect(output).toMatch(/broken\.js\(4,\d+\): error TS2739: .*systemPrompt, userRequest, settings/);
      expect(output).toMatch(/broken\.js\(5,\d+\): error TS2322: Type 'true' is not assignable to type 'string \| number/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
