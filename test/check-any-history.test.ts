/**
 * `longrun check` over a folder of histories of other teams' workflows, in five SDKs' shapes,
 * beside one of our kernel's runs and a malformed file: every file is judged or named in one
 * line, the runs are told apart by their links, and the verdicts are the ones each history calls for.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_INVARIANT_IDS, type RunVerdict } from '../src/checks/index.ts';
import { AgentRunHistory } from '../src/checks/testing/agent-run-history.ts';
import { sdkFixtures } from '../src/checks/testing/sdk-histories.ts';
import { longrun } from './longrun-cli.ts';

const ANY_WORKFLOW = [
  'payload.ceiling',
  'payload.references-resolve',
  'wft.no-retry-loop',
  'history.no-termination',
  'history.continue-as-new',
  'can.clean-boundary',
  'versioning.pinned-build',
];
const KERNEL_ONLY = HISTORY_INVARIANT_IDS.filter((id) => !ANY_WORKFLOW.includes(id));
const BROKEN = '{"events": [{"eventId": "1", "eventType": "EVENT_TYPE_WORKFLOW_EXECUTION_STARTED" "x": 1}]}';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'longrun-any-history-'));
  for (const [name, json] of Object.entries(sdkFixtures())) writeFileSync(join(dir, name), JSON.stringify(json, null, 1));
  const ours = new AgentRunHistory({ runId: 'kernel-run-1' }).turns(3).complete();
  ours.histories().forEach((json, i) => {
    writeFileSync(join(dir, `kernel-execution-${i + 1}.json`), JSON.stringify(json));
  });
  writeFileSync(join(dir, 'broken.json'), BROKEN);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Output {
  runs: RunVerdict[];
  unjudged: { sources: string[]; problem: string }[];
}

function statuses(verdict: RunVerdict | undefined): Record<string, string> {
  return Object.fromEntries((verdict?.results ?? []).map((r) => [r.id, r.status]));
}

describe('longrun check judges any Temporal history', () => {
  it("judges every run of a folder of five SDKs' histories, and names the malformed file in one line", async () => {
    const result = await longrun(['check', dir, '--json']);
    expect(result.code, result.stderr).toBe(1);
    const output = JSON.parse(result.stdout) as Output;
    const byId = new Map(output.runs.map((v) => [v.runId, v]));

    // Every file is in exactly one run, or named as not judged.
    const files = [...Object.keys(sdkFixtures()), 'kernel-execution-1.json', 'broken.json'];
    const placed = [...output.runs.flatMap((v) => v.sources), ...output.unjudged.flatMap((u) => u.sources)].map((s) =>
      s.slice(dir.length + 1),
    );
    expect(placed.sort()).toEqual(files.sort());
    expect(output.runs.map((v) => v.runId).sort()).toEqual(
      ['chat-9', 'greeting-1', 'ingest-2025-03', 'kernel-run-1', 'order-7781', 'subscription-42'].sort(),
    );
    const at = BROKEN.indexOf('"x"');
    expect(output.unjudged).toEqual([
      {
        sources: [join(dir, 'broken.json')],
        problem: expect.stringMatching(new RegExp(`broken\\.json: not a history: event #1 is not valid JSON \\(.+\\) \\(byte ${at}\\)$`)),
      },
    ]);
    expect(result.stderr.trim().split('\n')).toEqual([`not judged: ${output.unjudged[0]?.problem}`]);

    // Our kernel's run: the mechanism is found and every invariant holds.
    const kernel = byId.get('kernel-run-1');
    expect(kernel?.foreign).toBeUndefined();
    expect(kernel?.status).toBe('pass');
    expect(statuses(kernel)['journal.chain']).toBe('pass');

    // The others: the mechanism's invariants say not applicable, with the reason.
    for (const [id, type] of [
      ['order-7781', 'OrderWorkflow'],
      ['subscription-42', 'SubscriptionWorkflow'],
      ['ingest-2025-03', 'IngestWorkflow'],
      ['greeting-1', 'GreetingWorkflow'],
      ['chat-9', 'chatAgentWorkflow'],
    ] as const) {
      const verdict = byId.get(id);
      expect(verdict?.foreign, id).toEqual({ workflowType: type, reason: `workflow type ${type} is not the mapping's agentRun` });
      for (const invariant of KERNEL_ONLY) {
        const judged = verdict?.results.find((r) => r.id === invariant);
        // rebuild.contract judges any agent whose model calls the mapping names; these have none.
        const why =
          invariant === 'rebuild.contract'
            ? `not an agent the mapping reads: workflow type ${type} is not the mapping's agentRun, and no call_model activity`
            : `not the kernel's mechanism: workflow type ${type} is not the mapping's agentRun`;
        expect(judged, `${id} ${invariant}`).toEqual({ id: invariant, status: 'not-applicable', evidence: [why] });
      }
    }

    // Go: the task failing at attempts 1 to 4 is a retry loop.
    expect(statuses(byId.get('order-7781'))).toMatchObject({ 'wft.no-retry-loop': 'fail', 'payload.ceiling': 'pass' });
    expect(byId.get('order-7781')?.status).toBe('fail');
    // Java: the 2 MiB+ payload fails the ceiling, naming the activity.
    const java = byId.get('subscription-42');
    expect(statuses(java)).toMatchObject({ 'payload.ceiling': 'fail', 'wft.no-retry-loop': 'pass', 'history.no-termination': 'pass' });
    expect(java?.results.find((r) => r.id === 'payload.ceiling')?.evidence[0]).toMatch(
      /^event \d+: ActivityTaskCompleted FetchInvoices result 2,\d{3},\d{3} bytes >= limit 2,097,152$/,
    );
    // .NET: two executions in one run, the second terminated by the history service.
    const dotnet = byId.get('ingest-2025-03');
    expect(dotnet?.sources.map((s) => s.slice(dir.length + 1))).toEqual([
      'dotnet-ingest-execution-1.json',
      'dotnet-ingest-execution-2.json',
    ]);
    expect(statuses(dotnet)).toMatchObject({
      'history.no-termination': 'fail',
      'history.continue-as-new': 'fail',
      'can.clean-boundary': 'pass',
    });
    // Python, newest first, completes: the invariants of any workflow hold.
    expect(byId.get('greeting-1')?.status).toBe('pass');
    expect(statuses(byId.get('greeting-1'))).toMatchObject({ 'payload.ceiling': 'pass', 'history.continue-as-new': 'pass' });
    // TypeScript, in the API's wrapper, terminated by an operator: not the history service's termination.
    const chat = byId.get('chat-9');
    expect(chat?.status).toBe('pass');
    expect(chat?.results.find((r) => r.id === 'history.no-termination')?.evidence[0]).toMatch(
      /: WorkflowExecutionTerminated by "operator@example\.com": "stuck on a tool call" \(not the history service\)$/,
    );
  });

  it('prints each run in text, with no stack trace', async () => {
    const result = await longrun(['check', dir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('workflow subscription-42 (SubscriptionWorkflow): FAIL (1 execution)');
    expect(result.stdout).toContain("  not the kernel's mechanism: workflow type SubscriptionWorkflow is not the mapping's agentRun");
    expect(result.stdout).toMatch(/run kernel-run-1: PASS \(1 execution\)/);
    expect(result.stdout + result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });

  it('exits 2 only when nothing could be judged', async () => {
    const lone = join(dir, 'only-broken');
    mkdirSync(lone);
    writeFileSync(join(lone, 'broken.json'), BROKEN);
    const result = await longrun(['check', lone]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
