/**
 * `longrun check`: judge histories of any Temporal workflow, exported by any SDK or the CLI (or
 * saved by longrun), or fetched from a cluster by workflow id. The files given, and the .json
 * files of each folder and subfolder (history-files.ts), are grouped into runs by their
 * ContinueAsNew links and each run is judged;
 * a file that cannot be read is named in one line and the others are still judged.
 */
import {
  type CheckContext,
  checkRun,
  DEFAULT_KERNEL_MAPPING,
  groupRuns,
  HistoryLoadError,
  type KernelMapping,
  type LoadedHistory,
  loadHistory,
  loadHistoryFile,
  modelLikeActivities,
  type RunVerdict,
  readKernelMappingFile,
} from '../../checks/index.ts';
import { clusterSettingsFromEnv } from '../../environment/existing-cluster.ts';
import { terminalText } from '../../shared/visible-text.ts';
import { COMMAND_LINES } from '../command-lines.ts';
import { EXIT, verdictExit } from '../exit-code.ts';
import { booleanFlag, defineCommand, valueFlag } from '../flags.ts';
import { UsageError } from '../usage-error.ts';
import { historyFileGroups } from './history-files.ts';
import { bytesFlag, SERVER_LIMIT_FLAGS, serverLimitsLine, serverLimitsOf } from './server-limit-flags.ts';

export const MAPPING_FLAG = valueFlag({
  value: 'FILE',
  help: 'read the histories through this kernel mapping (JSON, a partial KernelMapping: e.g. {"gateMarker": "Version"} for a Go kernel\'s GetVersion gate)',
});

const FLAGS = {
  'workflow-id': valueFlag({ value: 'ID', help: 'fetch the run (all its executions) from TEMPORAL_ADDRESS instead' }),
  ...SERVER_LIMIT_FLAGS,
  'trigger-bytes': bytesFlag("compactionTriggerBytes (default 1.2 MB; a run's own limits win)"),
  'can-budget': bytesFlag("ContinueAsNew budget (default 128 MiB; a run's own limits win)"),
  mapping: MAPPING_FLAG,
  json: booleanFlag('print the verdicts as JSON: { runs, unjudged }'),
};

/** `--mapping FILE`: a bad file is a usage error naming the file and the field. */
export function mappingFile(path: string | undefined): KernelMapping | undefined {
  if (path === undefined) return undefined;
  try {
    return readKernelMappingFile(path);
  } catch (error) {
    throw new UsageError(`--mapping ${(error as Error).message}`);
  }
}

async function fromCluster(workflowId: string, mapping: KernelMapping | undefined) {
  if (!clusterSettingsFromEnv())
    throw new UsageError('--workflow-id needs TEMPORAL_ADDRESS (and TEMPORAL_NAMESPACE, TLS or API key as your cluster wants)');
  // Imported here: the client and the worker's modules take ~1 s to load, and judging files needs neither.
  const [{ startEnvironment }, { fetchRunHistories }] = await Promise.all([
    import('../../environment/index.ts'),
    import('../../runner/history-chain.ts'),
  ]);
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

/** How an invariant of the kernel says the run is another workflow's (src/checks/index.ts). */
const NOT_THE_MECHANISM = "not the kernel's mechanism";

/** Every string of a verdict comes from a history: each is printed through terminalText. */
export function printVerdict(verdict: RunVerdict): void {
  const runId = terminalText(verdict.runId);
  const name = verdict.foreign ? `workflow ${runId} (${terminalText(verdict.foreign.workflowType)})` : `run ${runId}`;
  console.log(`${name}: ${verdict.status.toUpperCase()} (${verdict.sources.length} execution${verdict.sources.length === 1 ? '' : 's'})`);
  for (const note of verdict.notes ?? []) console.log(`  note: ${terminalText(note)}`);
  if (verdict.foreign)
    console.log(
      `  not the kernel's mechanism: ${terminalText(verdict.foreign.reason)}; the kernel's own invariants are not applicable (an agent's are judged from its model calls)`,
    );
  for (const result of verdict.results) {
    if (result.status === 'not-applicable') {
      // The foreign reason is said once above; any other is said on the invariant's line.
      const why = result.evidence[0] ?? 'the run did not exercise it';
      const foreign = verdict.foreign !== undefined && why.startsWith(NOT_THE_MECHANISM);
      console.log(`  n/a   ${result.id}${foreign ? '' : `: not applicable: ${terminalText(why)}`}`);
      continue;
    }
    console.log(`  ${result.status === 'fail' ? 'FAIL' : 'pass'}  ${result.id}`);
    if (result.status === 'fail') for (const line of result.evidence.slice(0, 5)) console.log(`          ${terminalText(line)}`);
  }
}

/**
 * A run judged without a mapping whose kernel's model calls were not found: when one of its
 * activities takes a conversation, `rebuild.contract` says which mapping would judge it.
 */
async function hintMapping(verdict: RunVerdict): Promise<void> {
  const rebuild = verdict.results.find((r) => r.id === 'rebuild.contract');
  const missing = `no ${DEFAULT_KERNEL_MAPPING.activities.callModel} activity`;
  const [first] = verdict.sources;
  if (verdict.foreign || rebuild?.status !== 'not-applicable' || rebuild.evidence[0] !== missing || first === undefined) return;
  const known = new Set(Object.values(DEFAULT_KERNEL_MAPPING.activities).filter((name): name is string => typeof name === 'string'));
  const [candidate] = await modelLikeActivities(first, known);
  if (candidate === undefined) return;
  const mapping = JSON.stringify({ activities: { callModel: candidate } });
  rebuild.evidence[0] = `${missing}; ${candidate} looks like a model call: --mapping with ${mapping} would judge it`;
}

/** A file or a run that could not be judged, and why (one line). */
export interface Unjudged {
  sources: string[];
  problem: string;
}

/** Loads each file on its own (one at a time: memory holds one file's stream); a bad one is set aside. */
export async function loadEach(files: readonly string[], mapping: KernelMapping | undefined) {
  const loaded: LoadedHistory[] = [];
  const unjudged: Unjudged[] = [];
  for (const file of files) {
    try {
      loaded.push(await loadHistoryFile(file, { mapping }));
    } catch (error) {
      if (!(error instanceof HistoryLoadError)) throw error;
      unjudged.push({ sources: [file], problem: error.message });
    }
  }
  return { loaded, unjudged };
}

/** Each group of files loaded and sorted into runs apart from the others' (history-files.ts). */
export async function loadRuns(groups: readonly (readonly string[])[], mapping: KernelMapping | undefined) {
  const runs: LoadedHistory[][] = [];
  const unjudged: Unjudged[] = [];
  for (const files of groups) {
    const read = await loadEach(files, mapping);
    runs.push(...groupRuns(read.loaded));
    unjudged.push(...read.unjudged);
  }
  return { runs, unjudged };
}

/** Judges each run; a run whose executions are not one chain is set aside, naming them. */
function judgeRuns(runs: readonly LoadedHistory[][], ctx: CheckContext) {
  const verdicts: RunVerdict[] = [];
  const unjudged: Unjudged[] = [];
  for (const run of runs) {
    try {
      verdicts.push(checkRun(run, ctx));
    } catch (error) {
      if (!(error instanceof HistoryLoadError)) throw error;
      unjudged.push({ sources: run.map((h) => h.source), problem: error.message });
    }
  }
  return { verdicts, unjudged };
}

export const checkCommand = defineCommand({
  ...COMMAND_LINES.check,
  flags: FLAGS,
  positionals: { min: 0, max: Number.POSITIVE_INFINITY, names: 'history files' },
  notes: `Any SDK's or the CLI's export (proto3 JSON, either enum spelling, bare or in the API's
{ history: { events } }, or a bare array of events; oldest or newest event first); folders are
read for their .json and .json.gz files, their subfolders too (a report's histories/<workflow
id>/). The files given, and each folder's, are grouped into runs by their ContinueAsNew links.
Every workflow is judged by the invariants of any workflow; the kernel's own apply where the
mapping finds its RunInput, else say not applicable. An event marked workerMayIgnore is skipped,
as a worker skips it, and one of a type longrun does not know (a newer server's) is not read:
the rest of its history is judged, and the verdict's notes name both. The server limits it judges by, forecast's too (the same
flags and defaults), are its first line (--json: limits). A file that cannot be read is named on
stderr in one line; exit 2 only when nothing could be judged.`,
  async run({ values, positionals }) {
    const workflowId = values['workflow-id'];
    if (!workflowId && positionals.length === 0) throw new UsageError('give history files or a folder, or --workflow-id ID');
    if (workflowId && positionals.length > 0) throw new UsageError('give history files or --workflow-id, not both');
    const mapping = mappingFile(values.mapping);
    const { blobLimitBytes, ...history } = serverLimitsOf(values, mapping);
    const kernel = Object.fromEntries(
      Object.entries({ compactionTriggerBytes: values['trigger-bytes'], continueAsNewBytes: values['can-budget'] }).filter(
        ([, v]) => v !== undefined,
      ),
    );
    const ctx: CheckContext = { limits: { blobLimitBytes, ...kernel }, ...history };
    const read = workflowId
      ? { runs: [await fromCluster(workflowId, mapping)], unjudged: [] }
      : await loadRuns(historyFileGroups(positionals), mapping);
    const judged = judgeRuns(read.runs, ctx);
    const unjudged = [...read.unjudged, ...judged.unjudged];
    if (!mapping) for (const verdict of judged.verdicts) await hintMapping(verdict);
    const limits = { blobLimitBytes, ...history };
    if (values.json) console.log(JSON.stringify({ limits, runs: judged.verdicts, unjudged }, null, 2));
    else if (judged.verdicts.length > 0) {
      console.log(serverLimitsLine(limits));
      for (const verdict of judged.verdicts) printVerdict(verdict);
    }
    for (const { problem } of unjudged) console.error(`not judged: ${terminalText(problem)}`);
    if (judged.verdicts.length === 0) return EXIT.harness;
    return verdictExit(judged.verdicts.every((v) => v.status === 'pass'));
  },
});
