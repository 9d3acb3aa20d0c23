/**
 * `longrun check` takes what Temporal writes: real histories (longrun's own kernel run from the
 * corpus, the Python SDK agents' recorded runs) with the events a newer server or an SDK's
 * forward-compatibility fixture holds (`"eventType": "Unknown"` marked `workerMayIgnore`, a type
 * no SDK of today knows, a numeric type), some as a bare array of events. Every run is judged as
 * its history without them is, and its notes name what was skipped or not known.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunVerdict } from '../src/checks/index.ts';
import { longrun } from './longrun-cli.ts';

type Event = Record<string, unknown> & { eventId: string };
type History = { events: Event[] };

const ROOT = fileURLToPath(new URL('../', import.meta.url));
function recorded(path: string): History {
  const bytes = readFileSync(join(ROOT, path));
  return JSON.parse((path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8')) as History;
}

/** The events with `extra` just before the closing one (nothing after it names an event by id), which moves one id on. */
function beforeLast(history: History, extra: Record<string, unknown>): Event[] {
  const last = history.events.at(-1) as Event;
  const id = Number(last.eventId);
  return [
    ...history.events.slice(0, -1),
    { eventId: String(id), eventTime: last.eventTime, ...extra },
    { ...last, eventId: String(id + 1) },
  ];
}

const SOURCES = {
  kernel1: 'test/corpus/v1/corpus-run-0000-execution-1.json.gz',
  kernel2: 'test/corpus/v1/corpus-run-0000-execution-2.json.gz',
  agentsSdk: 'examples/agents-sdk-py/testdata/agents-sdk-py-run-0001.json',
  pydanticAi: 'examples/pydantic-ai-py/testdata/pydantic-ai-py-run-0001.json',
};

let newer: string;
let original: string;
beforeAll(() => {
  newer = mkdtempSync(join(tmpdir(), 'longrun-unknown-events-'));
  original = mkdtempSync(join(tmpdir(), 'longrun-unknown-events-original-'));
  const kernel1 = recorded(SOURCES.kernel1);
  const kernel2 = recorded(SOURCES.kernel2);
  const agentsSdk = recorded(SOURCES.agentsSdk);
  const pydanticAi = recorded(SOURCES.pydanticAi);
  mkdirSync(join(newer, 'kernel'));
  mkdirSync(join(original, 'kernel'));
  // An SDK's forward-compatibility fixture: a type no SDK knows, marked ignorable.
  writeFileSync(
    join(newer, 'kernel', 'execution-2.json'),
    JSON.stringify({ events: beforeLast(kernel2, { eventType: 'Unknown', workerMayIgnore: true }) }),
  );
  // A type a newer server added, not marked: judged around.
  writeFileSync(
    join(newer, 'kernel', 'execution-1.json'),
    JSON.stringify({
      events: beforeLast(kernel1, { eventType: 'UnknownEvent', taskId: '7', unknownEventEventAttributes: { reason: 'new' } }),
    }),
  );
  // A newer server's ignorable event as its CLI writes it, in a bare array newest first.
  const advanced = beforeLast(agentsSdk, {
    eventType: 'EVENT_TYPE_WORKFLOW_EXECUTION_TIME_POINT_ADVANCED',
    workerMayIgnore: true,
    workflowExecutionTimePointAdvancedEventAttributes: { identity: 'test-advancer', durationAdvanced: '60s' },
  });
  writeFileSync(join(newer, 'agents-sdk-py.json'), JSON.stringify(advanced.reverse(), null, 1));
  // The same read by an older CLI, which writes an enum it does not know as its number: a bare array.
  writeFileSync(join(newer, 'pydantic-ai-py.json'), JSON.stringify(beforeLast(pydanticAi, { eventType: 99, workerMayIgnore: true })));
  writeFileSync(join(original, 'kernel', 'execution-1.json'), JSON.stringify(kernel1));
  writeFileSync(join(original, 'kernel', 'execution-2.json'), JSON.stringify(kernel2));
  writeFileSync(join(original, 'agents-sdk-py.json'), JSON.stringify(agentsSdk));
  writeFileSync(join(original, 'pydantic-ai-py.json'), JSON.stringify(pydanticAi));
});
afterAll(() => {
  rmSync(newer, { recursive: true, force: true });
  rmSync(original, { recursive: true, force: true });
});

interface Output {
  runs: RunVerdict[];
  unjudged: unknown[];
}

async function check(folder: string): Promise<Map<string, RunVerdict>> {
  const result = await longrun(['check', folder, '--json']);
  const output = JSON.parse(result.stdout) as Output;
  expect(output.unjudged, result.stderr).toEqual([]);
  expect(result.code, result.stderr).toBe(0);
  return new Map(output.runs.map((verdict) => [verdict.sources.map((s) => s.slice(folder.length + 1)).join(' '), verdict]));
}

const statuses = (verdict: RunVerdict | undefined) => verdict?.results.map((r) => `${r.id} ${r.status}`);

describe('longrun check takes what Temporal writes', () => {
  it('judges every history of the folder as it judges them without the events it does not read, and names those', async () => {
    const [verdicts, originals] = await Promise.all([check(newer), check(original)]);
    expect([...verdicts.keys()].sort()).toEqual([
      'agents-sdk-py.json',
      'kernel/execution-1.json kernel/execution-2.json',
      'pydantic-ai-py.json',
    ]);
    for (const [files, verdict] of verdicts) {
      expect(statuses(verdict), files).toEqual(statuses(originals.get(files)));
      expect(verdict.status, files).toBe('pass');
      expect(originals.get(files)?.notes, files).toBeUndefined();
    }
    // Our kernel's run is judged by every invariant, the mechanism's too.
    expect(statuses(verdicts.get('kernel/execution-1.json kernel/execution-2.json'))).toContain('journal.chain pass');
    expect(verdicts.get('kernel/execution-1.json kernel/execution-2.json')?.notes).toEqual([
      'skipped 1 event marked workerMayIgnore, as a worker does: Unknown (execution 2: event 97)',
      'judged around 1 event of a type the checks do not know (not read): UnknownEvent (execution 1: event 244)',
    ]);
    expect(verdicts.get('agents-sdk-py.json')?.notes).toEqual([
      'skipped 1 event marked workerMayIgnore, as a worker does: EVENT_TYPE_WORKFLOW_EXECUTION_TIME_POINT_ADVANCED (execution 1: event 77)',
    ]);
    expect(verdicts.get('pydantic-ai-py.json')?.notes).toEqual([
      expect.stringMatching(/^skipped 1 event marked workerMayIgnore, as a worker does: EventType 99 \(execution 1: event \d+\)$/),
    ]);
  });

  it('says so in its text too', async () => {
    const result = await longrun(['check', join(newer, 'kernel')]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('run corpus-run-0000: PASS (2 executions)\n  note: skipped 1 event marked workerMayIgnore');
    expect(result.stdout).toContain(
      '  note: judged around 1 event of a type the checks do not know (not read): UnknownEvent (execution 1: event 244)',
    );
  });
});
