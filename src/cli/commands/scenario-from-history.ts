/**
 * `longrun scenario from-history FILE...`: a scenario that replays a recorded run's shape on the
 * same binary (src/scenario/from-history.ts). The files are one run's executions, read as `check`
 * reads them (any SDK's export; another kernel's through --mapping).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { buildRunView } from '../../checks/index.ts';
import { BINARY_IDS } from '../../kernel/index.ts';
import { scenarioFromHistory } from '../../scenario/from-history.ts';
import { PACING_BUDGET_MS } from '../../scenario/from-history-pacing.ts';
import { resolveScenario } from '../../scenario/index.ts';
import { type ForeignTarget, foreignTargetOf } from '../../scenario/target-from-scenario.ts';
import { atomicWriteFile } from '../../shared/atomic-write.ts';
import { terminalText } from '../../shared/visible-text.ts';
import { EXIT } from '../exit-code.ts';
import { defineCommand, valueFlag } from '../flags.ts';
import { UsageError } from '../usage-error.ts';
import { loadRuns, MAPPING_FLAG, mappingFile } from './check.ts';
import { historyFileGroups } from './history-files.ts';
import { bytesFlag, SERVER_LIMIT_FLAGS } from './server-limit-flags.ts';

/** --target S: the scenario's foreign target, its paths rebased to where the scenario is written. */
function foreignTarget(name: string, out: string | undefined): ForeignTarget {
  try {
    return foreignTargetOf(resolveScenario(name).file, out ? dirname(resolve(out)) : process.cwd());
  } catch (error) {
    throw new UsageError(`--target ${(error as Error).message}`);
  }
}

export const fromHistoryCommand = defineCommand({
  usage: 'scenario from-history <history.json>... [--mapping M] [--out F]',
  summary:
    "write a scenario that replays a run's shape (turns, tools, sizes, pacing, failures) on the same binary, its limit breaking at the same turn",
  flags: {
    mapping: MAPPING_FLAG,
    out: valueFlag({ value: 'F', help: 'write the scenario to F (default: print it)' }),
    binary: valueFlag({
      value: 'B',
      help: `the binary to run (default: the one the run's task queue names): one of ${BINARY_IDS.join(', ')}, or of --target's`,
    }),
    target: valueFlag({
      value: 'S',
      help: "run a foreign worker: the target of scenario S (a built-in name or a file) that drives it, e.g. go-tmprl1103's Go kernel; its binary by --binary or the task queue",
    }),
    scale: valueFlag({
      value: 'X',
      help: 'multiply every size by X, the limits with them (default: what brings the limit that broke to 256 KiB of blob or 2 MiB of history, as the built-in incidents; 1: unscaled)',
      parse: (raw) => {
        const n = Number(raw);
        return Number.isFinite(n) && n > 0 && n <= 1 ? n : undefined;
      },
      want: 'a number in (0, 1]',
    }),
    'time-scale': valueFlag({
      value: 'X',
      help: `multiply the gaps between the source's turns by X (each turn's model answer is held back by its gap times X; default: what brings them to ${PACING_BUDGET_MS / 1000} s in all, 1 when they take less; 0: no pacing)`,
      parse: (raw) => {
        const n = Number(raw);
        return raw.trim() !== '' && Number.isFinite(n) && n >= 0 ? n : undefined;
      },
      want: 'a number of 0 or more',
    }),
    'blob-limit': bytesFlag(
      "the source server's limit.blobSize.error (default: the run's own blobLimitBytes, else the power of two above its largest payload when it broke on it, else 2 MiB)",
    ),
    'history-size-limit': bytesFlag(
      "the source server's limit.historySize.error (default: the power of two above the size it counted last when it broke on it, else 500 MiB)",
    ),
    'history-count-limit': SERVER_LIMIT_FLAGS['history-count-limit'],
  },
  positionals: { min: 1, max: Number.POSITIVE_INFINITY, names: 'history files' },
  async run({ values, positionals }) {
    const mapping = mappingFile(values.mapping);
    const groups = historyFileGroups(positionals);
    const read = await loadRuns(groups, mapping);
    for (const { problem } of read.unjudged) console.error(`not read: ${terminalText(problem)}`);
    if (read.runs.length !== 1) throw new UsageError(`the files hold ${read.runs.length} runs: give the executions of one`);
    const files = groups.flat();
    const hash = createHash('sha256');
    for (const file of files) hash.update(readFileSync(file));
    const server = {
      ...(values['blob-limit'] === undefined ? {} : { blobLimitBytes: values['blob-limit'] }),
      ...(values['history-size-limit'] === undefined ? {} : { historySizeLimitBytes: values['history-size-limit'] }),
      ...(values['history-count-limit'] === undefined ? {} : { historyCountLimit: values['history-count-limit'] }),
    };
    let made: ReturnType<typeof scenarioFromHistory>;
    try {
      made = scenarioFromHistory(buildRunView(read.runs[0] ?? []), {
        source: files.join(', '),
        sha256: hash.digest('hex'),
        server,
        ...(values.binary ? { binary: values.binary } : {}),
        ...(values.target ? { foreign: foreignTarget(values.target, values.out) } : {}),
        ...(values.scale === undefined ? {} : { scale: values.scale }),
        ...(values['time-scale'] === undefined ? {} : { timeScale: values['time-scale'] }),
      });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const broke = made.profile.break;
    const said = `${made.binary}, ${made.profile.turns.length} turns, ${broke ? `${broke.incident} at turn ${broke.turn}` : 'no limit broke'}, scale ${made.scale}, time scale ${+made.timeScale.toPrecision(3)}`;
    if (values.out) {
      await atomicWriteFile(values.out, made.text);
      console.error(`wrote ${values.out} (${said}): \`longrun run ${values.out}\``);
    } else {
      process.stdout.write(made.text);
      console.error(`(${said})`);
    }
    return EXIT.passed;
  },
});
