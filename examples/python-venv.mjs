// The build step of a Python example: `node python-venv.mjs <folder>` (the folder relative to
// the current directory; the current directory when left out) makes `<folder>/.venv` with
// `python3 -m venv` and installs its requirements.txt into it. A stamp in the venv holds the
// sha256 of requirements.txt, so a second run with nothing changed starts at once; a changed
// requirements.txt makes the venv anew. Progress goes to stderr, every 30 s while pip works; a
// failure is one line saying why, and exit 1. PYTHON names another interpreter than python3.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

const folder = resolve(process.argv[2] ?? '.');
const name = basename(folder);
const python = process.env.PYTHON || 'python3';
const venv = join(folder, '.venv');
const venvPython = join(venv, 'bin', 'python');
const stamp = join(venv, '.longrun-requirements-sha256');

const say = (line) => process.stderr.write(`${name}: ${line}\n`);
const fail = (line) => {
  say(line);
  process.exit(1);
};

const requirementsFile = join(folder, 'requirements.txt');
if (!existsSync(requirementsFile)) fail(`no requirements.txt in ${folder}`);
const key = createHash('sha256').update(readFileSync(requirementsFile)).digest('hex');
if (existsSync(venvPython) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === key) process.exit(0);

const started = Date.now();
const seconds = () => Math.round((Date.now() - started) / 1000);
rmSync(venv, { recursive: true, force: true });
say(`making .venv (${python} -m venv, then pip install -r requirements.txt, once per requirements.txt; about a minute)`);

// venv says why it failed on stdout (Debian's "ensurepip is not available") or stderr.
const made = await run(python, ['-m', 'venv', venv], { stdout: true });
if (made.error || made.code !== 0) {
  rmSync(venv, { recursive: true, force: true });
  if (made.error?.code === 'ENOENT')
    fail(`${python} -m venv failed: ${python} not found on PATH (on Debian: apt-get install python3 python3-venv)`);
  const why = /ensurepip is not\s+available/.test(made.log) ? 'ensurepip is not available' : lastLines(made.log, 1) || `exit ${made.code}`;
  fail(`${python} -m venv failed: ${why} (on Debian: apt-get install python3-venv)`);
}

const ticker = setInterval(() => say(`still installing (${seconds()} s)`), 30_000);
const pip = await run(venvPython, ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '-r', requirementsFile]);
clearInterval(ticker);
if (pip.error || pip.code !== 0) {
  // Leave no venv that a later run could take for a finished one (the stamp is written last anyway).
  rmSync(venv, { recursive: true, force: true });
  fail(`pip install -r requirements.txt failed (exit ${pip.code ?? pip.error?.message}): ${lastLines(pip.log, 3) || 'it said nothing'}`);
}
writeFileSync(stamp, `${key}\n`);
say(`.venv ready in ${seconds()} s`);

function run(command, args, { stdout = false } = {}) {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: folder, stdio: ['ignore', stdout ? 'pipe' : 'ignore', 'pipe'] });
    let log = '';
    const keep = (chunk) => {
      log += chunk;
      if (log.length > 200_000) log = log.slice(-100_000);
    };
    child.stderr.on('data', keep);
    child.stdout?.on('data', keep);
    child.on('error', (error) => done({ error, log }));
    child.on('close', (code) => done({ code, log }));
  });
}

// The last n lines that say something (pip's notices about its own upgrades left out), joined into one.
function lastLines(text, n) {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !/^\[notice\]/i.test(line))
    .slice(-n)
    .join(' / ');
}
