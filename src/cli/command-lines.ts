/**
 * Each command's usage line and summary, written once: `longrun --help` lists them without
 * loading a single command module (each imports the harness: seconds of module loading), and
 * each command's own declaration reads its line from here.
 */
import { INCIDENTS } from '../checks/incidents.ts';

export const COMMAND_LINES = {
  run: { usage: 'run <scenario> [--json]', summary: 'run a scenario (a built-in name or a file) and write its report' },
  soak: {
    usage: 'soak <scenario> --duration D',
    summary: 'keep starting runs of a scenario for a duration (10m, 1h), then judge them all',
  },
  repro: {
    usage: `repro ${INCIDENTS.join('|')}`,
    summary: 'reproduce a production incident on the binary that had it and show it fixed on the next',
  },
  check: {
    usage: 'check <history.json|dir>... | --workflow-id ID',
    summary: 'judge the histories of any Temporal workflow against the invariants',
  },
  forecast: {
    usage: 'forecast <history.json|dir>...',
    summary: 'say at which turn (or activity) each history limit would be hit',
  },
  compare: {
    usage: 'compare <base> <new> [--max-regression KEY=LIMIT,...] [--json]',
    summary: 'set two reports (summary.json or bench) side by side and fail on a figure worse than the baseline past its threshold',
  },
  arms: {
    usage: 'arms [scenario] [--arms B,...] [--report-dir DIR] [--json]',
    summary:
      'run the answers to the limits (none, External Storage, the state card, both) on one plan and seed and tabulate what each cost and what broke it',
  },
  replay: {
    usage: 'replay <history.json>... [--binary B] [--scenario FILE]',
    summary: "replay a run's histories on a kernel binary, or a scenario's foreign replayer, and report determinism errors",
  },
  mutants: { usage: 'mutants [--json]', summary: 'run the broken-kernel catalogue and print caught/missed and the score' },
  scenario: {
    usage: 'scenario list|validate|new|from-history',
    summary: "list the built-in scenarios, validate scenario files, start a new one, or write one from a run's history",
  },
  shrink: {
    usage: 'shrink <scenario> [--out F] [--max-steps N]',
    summary: 'make a failing scenario smaller (runs, turns, sizes, faults) while it fails the same way, and write the smallest',
  },
  'mock-server': {
    usage: 'mock-server [--port N] [--host H] [--scenario S] [--tool-map NAME=TOOL,...] [--peers URL,... --self URL]',
    summary: 'serve the mock model and sandbox over HTTP (127.0.0.1 by default) until stopped',
  },
  worker: {
    usage: 'worker --task-queue Q [--mock-url URL] [--binary B]',
    summary: "run a kernel binary's worker on TEMPORAL_ADDRESS until stopped",
  },
  'harness-worker': {
    usage: 'harness-worker [--address HOST:PORT] [--namespace NS] [--task-queue Q]',
    summary: 'drive and judge the runs that `run` and `soak` hand to a harness task queue (`--drive-on Q`, `--judge-on Q`), until stopped',
  },
} as const satisfies Record<string, { usage: string; summary: string }>;
