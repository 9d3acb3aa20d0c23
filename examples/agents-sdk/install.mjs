// The scenario's build step: `npm ci` in this folder once per package-lock.json, then the
// workflow bundle once per source. Stamps hold the hashes, so a run with nothing changed starts
// at once. Progress goes to stderr; a failure ends with one line saying why.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const hashOf = (files) => {
  const hash = createHash('sha256');
  for (const file of files)
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(`${here}${file}`))
      .update('\0');
  return hash.digest('hex');
};
const sources = readdirSync(`${here}src`)
  .filter((name) => name.endsWith('.ts'))
  .sort()
  .map((name) => `src/${name}`);

const steps = [
  {
    what: "installing the worker's packages (npm ci, once per package-lock.json; about a minute)",
    stamp: 'node_modules/.longrun-lock-sha256',
    key: hashOf(['package-lock.json']),
    argv: ['npm', 'ci', '--no-audit', '--no-fund'],
  },
  {
    what: 'bundling the workflow (once per source; some 20 s)',
    stamp: 'dist/.longrun-source-sha256',
    key: hashOf(['package-lock.json', ...sources]),
    argv: ['node_modules/.bin/tsx', 'src/bundle.ts'],
  },
];

for (const step of steps) {
  const stamp = `${here}${step.stamp}`;
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === step.key) continue;
  await run(step);
  writeFileSync(stamp, step.key);
}

function run({ what, argv }) {
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 1000);
  process.stderr.write(`agents-sdk: ${what}\n`);
  const ticker = setInterval(() => process.stderr.write(`agents-sdk: still at it (${seconds()} s)\n`), 30_000);
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { cwd: here, stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr.on('data', (chunk) => {
      log += chunk;
    });
    const fail = (why) => {
      clearInterval(ticker);
      process.stderr.write(`agents-sdk: ${argv.join(' ')} ${why}\n`);
      process.exit(1);
    };
    child.on('error', (error) => fail(`could not start: ${error.message}`));
    child.on('close', (code) => {
      if (code !== 0) return fail(`failed (exit ${code}): ${lastLine(log) || 'it said nothing'}`);
      clearInterval(ticker);
      process.stderr.write(`agents-sdk: done in ${seconds()} s\n`);
      resolve();
    });
  });
}

function lastLine(text) {
  const lines = text
    .trim()
    .split('\n')
    .filter((line) => line.trim() && !/^npm warn/i.test(line));
  return lines.at(-1) ?? '';
}
