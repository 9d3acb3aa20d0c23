import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { defaultPayloadConverter } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { payloadConverter } from './payload-converter.ts';
import { activityDataConverter } from './workflow-bundles.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const VALUES: unknown[] = [
  { role: 'user', content: 'Make the test suite pass.' },
  { content: 'Привет, мир · 你好世界 · 😀👍🏽 · é (e\u0301) · a lone \ud800 high and \udc00 low surrogate' },
  ['a', 1, 2.5, true, null, { nested: { deeper: ['x'] } }],
  'a plain string',
  42,
  null,
  '',
];

describe('the kernel workers payload converter', () => {
  it('writes the bytes the SDK default converter writes, for every kind of value', () => {
    for (const value of VALUES) {
      expect(payloadConverter.toPayload(value)).toEqual(defaultPayloadConverter.toPayload(value));
    }
    const binary = new Uint8Array([0, 1, 254, 255]);
    expect(payloadConverter.toPayload(binary)).toEqual(defaultPayloadConverter.toPayload(binary));
    expect(payloadConverter.toPayload(undefined)).toEqual(defaultPayloadConverter.toPayload(undefined));
  });

  it('reads what the default converter wrote, and the default reads what it writes', () => {
    for (const value of VALUES) {
      expect(payloadConverter.fromPayload(defaultPayloadConverter.toPayload(value))).toEqual(value);
      expect(defaultPayloadConverter.fromPayload(payloadConverter.toPayload(value))).toEqual(value);
    }
  });

  it('refuses a payload with no data, as the default does', () => {
    const payload = { metadata: defaultPayloadConverter.toPayload('x').metadata };
    expect(() => payloadConverter.fromPayload(payload)).toThrow('Got payload with no data');
  });
});

describe('the activities converter', () => {
  const probe = [
    "import { loadDataConverter } from '@temporalio/common/lib/internal-non-workflow/index.js';",
    "import { activityDataConverter } from './src/kernel/workers/workflow-bundles.ts';",
    'const options = activityDataConverter();',
    "const json = loadDataConverter(options).payloadConverter.converterByEncoding.get('json/plain');",
    'console.log(JSON.stringify({ path: options.payloadConverterPath, json: json.constructor.name }));',
  ].join('\n');

  it('is payload-converter.ts where tsx lets require() read TypeScript, as the SDK loads it', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', probe], { cwd: ROOT, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ path: expect.stringMatching(/payload-converter\.ts$/), json: 'NativeJsonPayloadConverter' });
  });

  it("is the SDK's own where require() cannot read TypeScript, as under vitest", () => {
    expect(activityDataConverter()).toEqual({});
  });
});
