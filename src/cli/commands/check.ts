/**
 * `longrun check`: judge histories exported with `temporal workflow show --output json` (or
 * saved by longrun), or fetched from a cluster by workflow id. The files given (or the .json
 * files of a folder) are the executions of one run.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CheckContext,
  checkRun,
  type KernelMapping,
  loadHistory,
  loadHistoryFile,
  type RunVerdict,
  readKernelMappingFile,
} from '../../checks/index.ts';
import { clusterSettingsFromEnv, startEnvironment } from '../../environment/index.ts';
import { fetchRunHistories } from '../../runner/history-chain.ts';
import { COMMAND_LINES } from '../command-lines.ts';
import { verdictExit } from '../exit-code.ts';
import { booleanFlag, defineCommand, valueFlag, wholeNumber } from '../flags.ts';
import { UsageError } from '../usage-error.ts';

function bytesFlag(help: string) {
  return valueFlag({
    value: 'N',
    help,
    parse: wholeNumber(1),
    want: 'a positive whole number of bytes',
  });
}

const FLAGS = {
  'workflow-id': valueFlag({ value: 'ID', help: 'fetch the run (all its executions) from TEMPORAL_ADDRESS instead' }),
  'blob-limit': bytesFlag("the server's limit.blobSize.error (default 2 MiB)"),
  'trigger-bytes': bytesFlag("compactionTriggerBytes (default 1.2 MB; a run's own limits win)"),
  'can-budget': bytesFlag("ContinueAsNew budget (default 128 MiB; a run's own limits win)"),
  'history-size-limit': bytesFlag("the server's limit.historySize.error (default 500 MiB)"),
  mapping: valueFlag({
    value: 'FILE',
    help: 'read the histories through this kernel mapping (JSON, a partial KernelMapping: e.g. {"gateMarker": "Version"} for a Go kernel\'s GetVersion gate)',
  }),
  json: booleanFlag('print the verdict as JSON'),
};

/** `--mapping FILE`: a bad file is a usage error naming the file and the field. */
function mappingFile(path: string | undefined): KernelMapping | undefined {
  if (path === undefined) return undefined;
  try {
    return readKernelMappingFile(path);
  } catch (error) {
    throw new UsageError(`--mapping ${(error as Error).message}`);
  }
}

function historyFiles(paths: readonly string[]): string[] {
  return paths.flatMap((path) => {
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(path);
    } catch {
      throw new UsageError(`${path}: no such file or folder`);
    }
    if (!stat.isDirectory()) return [path];
    const files = readdirSync(path)
      .filter((f) => f.endsWith('.json'))
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
      .map((f) => join(path, f));
    if (files.length === 0) throw new UsageError(`${path}: no .json history in this folder`);
    return files;
  });
}

async function fromCluster(workflowId: string, mapping: KernelMapping | undefined) {
  if (!clusterSettingsFromEnv())
    throw new UsageError('--workflow-id needs TEMPORAL_ADDRESS (and TEMPORAL_NAMESPACE, TLS or API key as your cluster wants)');
  const env = await startEnvironment();
  try {
    const description = await env.client.workflow.getHandle(workflowId).describe();
    const firstRunId = description.raw.workflowExecutionInfo?.firstRunId || description.runId;
    const fetched = await fetchRunHistories(env.client, workflowId, firstRunId);
    return fetched.map((f, i) => loadHistory(f.history, { source: `${workflowId} execution ${i + 1}`, mapping }));
  } finally {
    await env.teardown();
  }
}

export function printVerdict(verdict: RunVerdict): void {
  console.log(
    `run ${verdict.runId}: ${verdict.status.toUpperCase()} (${verdict.sources.length} execution${verdict.sources.length === 1 ? '' : 's'})`,
  );
  for (const result of verdict.results) {
    console.log(`  ${result.status === 'fail' ? 'FAIL' : result.status === 'pass' ? 'pass' : 'n/a '}  ${result.id}`);
    if (result.status === 'fail') for (const line of result.evidence.slice(0, 5)) console.log(`          ${line}`);
  }
}

export const checkCommand = defineCommand({
  ...COMMAND_LINES.check,
  flags: FLAGS,
  positionals: { min: 0, max: Number.POSITIVE_INFINITY, names: 'history files' },
  notes: `The files (or a folder's .json files, in name order) are the executions of one run, as
\`temporal workflow show --output json\` or longrun's reports write them.`,
  async run({ values, positionals }) {
    const workflowId = values['workflow-id'];
    if (!workflowId && positionals.length === 0) throw new UsageError('give history files or a folder, or --workflow-id ID');
    if (workflowId && positionals.length > 0) throw new UsageError('give history files or --workflow-id, not both');
    const limits = Object.fromEntries(
      Object.entries({
        blobLimitBytes: values['blob-limit'],
        compactionTriggerBytes: values['trigger-bytes'],
        continueAsNewBytes: values['can-budget'],
      }).filter(([, v]) => v !== undefined),
    );
    const historySizeLimitBytes = values['history-size-limit'];
    const mapping = mappingFile(values.mapping);
    const ctx: CheckContext = { limits, ...(historySizeLimitBytes ? { historySizeLimitBytes } : {}) };
    const histories = workflowId
      ? await fromCluster(workflowId, mapping)
      : await Promise.all(historyFiles(positionals).map((f) => loadHistoryFile(f, { mapping })));
    const verdict = checkRun(histories, ctx);
    if (values.json) console.log(JSON.stringify(verdict, null, 2));
    else printVerdict(verdict);
    return verdictExit(verdict.status === 'pass');
  },
});
