import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sleep } from '../../shared/sleep.ts';
import { AgentRunHistory } from '../testing/agent-run-history.ts';
import { HistoryBuilder } from '../testing/history-builder.ts';
import { HistoryLoadError, historyLoader, loadHistory, loadHistoryFile } from './index.ts';

/**
 * The events each stream of a file handed over, stream by stream: the one pass and the three
 * passes give the same record and error, so only the reading tells which one judged a file.
 */
const pulled = vi.hoisted(() => [] as number[]);
vi.mock('./event-stream.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('./event-stream.ts')>();
  async function* counted(...args: Parameters<typeof real.streamHistoryEvents>): AsyncGenerator<unknown> {
    const stream = pulled.push(0) - 1;
    for await (const event of real.streamHistoryEvents(...args)) {
      pulled[stream] = (pulled[stream] ?? 0) + 1;
      yield event;
    }
  }
  return { ...real, streamHistoryEvents: counted };
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'longrun-checks-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A run with every kind of event the checks read: compaction, a failed tool, ContinueAsNew. */
function sampleRun(): AgentRunHistory {
  const run = new AgentRunHistory({ limits: { compactionTriggerBytes: 8_000 } });
  run.turns(3, { tools: [2500, 1200] });
  run.compact();
  run.turn({ failedTools: [0] });
  run.continueAsNew();
  run.complete();
  return run;
}

/** A reader left waiting on the FIFO (before the fix) is let go; with none waiting, opening it says ENXIO. */
function letReaderGo(fifo: string): void {
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
  }
}

async function loadError(load: () => unknown): Promise<HistoryLoadError> {
  try {
    await load();
  } catch (error) {
    expect(error).toBeInstanceOf(HistoryLoadError);
    expect((error as Error).message).not.toContain('\n');
    return error as HistoryLoadError;
  }
  throw new Error('expected the history to be refused');
}

describe('loading the three forms of a history', () => {
  const json = sampleRun().histories()[0] as { events: Record<string, unknown>[] };
  const fromCli = loadHistory(json, { source: 'x' });

  it('reads the proto3 JSON of `temporal workflow show --output json`', () => {
    const types = fromCli.events.map((e) => e.type);
    expect(types[0]).toBe('WorkflowExecutionStarted');
    expect(types).toContain('ActivityTaskScheduled');
    expect(types.at(-1)).toBe('WorkflowExecutionContinuedAsNew');
    const call = fromCli.events.find((e) => e.attrs.kind === 'activity-scheduled' && e.attrs.activityType === 'call_model');
    expect(call?.attrs).toMatchObject({ kind: 'activity-scheduled', input: { kind: 'call-model', turn: 1 } });
    expect(call?.payloads[0]?.field).toBe('input');
  });

  it('reads SDK objects (IHistory) to the same model', () => {
    expect(loadHistory(historyFromJSON(json), { source: 'x' })).toEqual(fromCli);
  });

  it('reads the JSON of fetchHistory() (JSON.stringify of the SDK objects) to the same model', () => {
    const text = JSON.stringify(historyFromJSON(json));
    expect(text).toContain('"eventTime":{"seconds"');
    expect(loadHistory(text, { source: 'x' })).toEqual(fromCli);
  });

  it('reads a file (streamed) to the same model', async () => {
    const path = join(dir, 'execution-1.json');
    await writeFile(path, JSON.stringify(json, null, 2));
    const fromFile = await loadHistoryFile(path);
    expect({ ...fromFile, source: 'x' }).toEqual(fromCli);
    expect(fromFile.source).toBe(path);
  });

  it('reads a gzipped file to the same model, and refuses one that is not gzip', async () => {
    const path = join(dir, 'execution-1.json.gz');
    await writeFile(path, gzipSync(JSON.stringify(json)));
    expect({ ...(await loadHistoryFile(path)), source: 'x' }).toEqual(fromCli);
    const fake = join(dir, 'fake.json.gz');
    await writeFile(fake, JSON.stringify(json));
    const error = await loadError(() => loadHistoryFile(fake));
    expect(error.message).toMatch(new RegExp(`^${fake}: not gzip data \\(incorrect header check\\)$`));
  });

  it('accepts legacy PascalCase event types and numeric enums', () => {
    const legacy = {
      events: json.events.map((e) => ({ ...e, eventType: String(e.eventType).replace('EVENT_TYPE_', '') })),
    };
    legacy.events = legacy.events.map((e) => ({
      ...e,
      eventType: e.eventType.toLowerCase().replace(/(^|_)([a-z])/g, (_m: string, _u: string, c: string) => c.toUpperCase()),
    }));
    expect(loadHistory(legacy, { source: 'x' })).toEqual(fromCli);
    const numeric = { events: json.events.map((e, i) => (i === 0 ? { ...e, eventType: 1 } : e)) };
    expect(loadHistory(numeric, { source: 'x' })).toEqual(fromCli);
  });
});

describe('a malformed history gives one line naming its source', () => {
  const valid = new AgentRunHistory().histories()[0] as { events: Record<string, unknown>[] };

  it('bad JSON text', async () => {
    const error = await loadError(() => loadHistory('{"events": [', { source: 'run-7.json' }));
    expect(error.message).toMatch(/^run-7\.json: not valid JSON/);
  });

  it('bad JSON in a file', async () => {
    const path = join(dir, 'broken.json');
    await writeFile(path, JSON.stringify(valid).replace('"eventId":"3"', '"eventId":3,,'));
    const error = await loadError(() => loadHistoryFile(path));
    expect(error.message).toMatch(new RegExp(`^${path}: not a history: event #3 is not valid JSON`));
  });

  it('a truncated file', async () => {
    const path = join(dir, 'truncated.json');
    await writeFile(path, JSON.stringify(valid).slice(0, 900));
    const error = await loadError(() => loadHistoryFile(path));
    expect(error.message).toMatch(/the file ends inside event #\d+/);
  });

  it('a missing file', async () => {
    const error = await loadError(() => loadHistoryFile(join(dir, 'absent.json')));
    expect(error.message).toContain('absent.json: cannot read the file (ENOENT)');
  });

  it('a FIFO, a folder: named at once, never waited on', async () => {
    const fifo = join(dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    try {
      const refused = await Promise.race([loadError(() => loadHistoryFile(fifo)), sleep(3000).then(() => 'still waiting')]);
      expect((refused as Error).message).toBe(`${fifo}: not a regular file (a FIFO): not read`);
    } finally {
      letReaderGo(fifo);
    }
    expect((await loadError(() => loadHistoryFile(dir))).message).toBe(`${dir}: not a regular file (a folder): not read`);
  });

  it('a device, a socket: named at once', async () => {
    expect((await loadError(() => loadHistoryFile('/dev/null'))).message).toBe('/dev/null: not a regular file (a device): not read');
    const socket = join(dir, 'history.sock');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      expect((await loadError(() => loadHistoryFile(socket))).message).toBe(`${socket}: not a regular file (a socket): not read`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('the wrong shape', async () => {
    expect((await loadError(() => loadHistory({ history: [] } as never, { source: 'a.json' }))).message).toBe(
      'a.json: not a history: expected an object with an "events" array, or an array of events',
    );
    expect((await loadError(() => loadHistory(7 as never, { source: 'n.json' }))).message).toBe(
      'n.json: not a history: expected an object with an "events" array, or an array of events',
    );
    const path = join(dir, 'array.json');
    await writeFile(path, '[1, 2]');
    expect((await loadError(() => loadHistoryFile(path))).message).toContain('not a history: events[0] is not an object (byte 1)');
    await writeFile(path, '"events"');
    expect((await loadError(() => loadHistoryFile(path))).message).toContain(
      'not a JSON object with an "events" array, nor an array of events',
    );
    const noEvents = join(dir, 'no-events.json');
    await writeFile(noEvents, '{"history": {"x": [1]}}');
    expect((await loadError(() => loadHistoryFile(noEvents))).message).toContain('no "events" array');
  });

  it('missing events', async () => {
    const gap = { events: valid.events.filter((_, i) => i !== 4) };
    expect((await loadError(() => loadHistory(gap, { source: 'gap.json' }))).message).toBe(
      'gap.json: event 6 follows event 4 (events missing or out of order)',
    );
    const headless = { events: valid.events.slice(2) };
    expect((await loadError(() => loadHistory(headless, { source: 'h.json' }))).message).toBe(
      'h.json: history starts at event 3, not 1 (events missing)',
    );
    expect((await loadError(() => loadHistory({ events: [] }, { source: 'e.json' }))).message).toBe('e.json: history has no events');
  });

  it('an event of a type it knows without its attributes', async () => {
    const bare = { events: valid.events.map((e, i) => (i === 1 ? { eventId: '2', eventType: 'EVENT_TYPE_WORKFLOW_TASK_SCHEDULED' } : e)) };
    expect((await loadError(() => loadHistory(bare, { source: 'b.json' }))).message).toBe(
      'b.json: event 2 (WorkflowTaskScheduled) has no workflowTaskScheduledEventAttributes',
    );
  });

  it('shorthand payloads (values instead of base64 data)', async () => {
    const shorthand = {
      events: valid.events.map((e, i) =>
        i === 0 ? { ...e, workflowExecutionStartedEventAttributes: { workflowType: { name: 'agentRun' }, input: [{ runId: 'r' }] } } : e,
      ),
    };
    expect((await loadError(() => loadHistory(shorthand, { source: 's.json' }))).message).toContain(
      's.json: event 1 (WorkflowExecutionStarted) has shorthand payloads in input',
    );
  });
});

describe('what a newer server or an SDK test writes is read, not refused', () => {
  const json = sampleRun().histories()[0] as { events: Record<string, unknown>[] };
  const expected = loadHistory(json, { source: 'x' });
  /** The history with `extra` as event `at` (1-based; before the last event: nothing after it names an event by id), the events from there on one id later. */
  const withEvent = (at: number, extra: Record<string, unknown>) => ({
    events: [
      ...json.events.slice(0, at - 1),
      { eventId: String(at), eventTime: '2026-12-03T10:00:00Z', ...extra },
      ...json.events.slice(at - 1).map((e) => ({ ...e, eventId: String(Number(e.eventId) + 1) })),
    ],
  });
  /** The loaded model with event `at` taken out and the ids after it one lower: what the checks read around it. */
  const without = (loaded: ReturnType<typeof loadHistory>, at: number) => {
    const { uninterpreted: _, ...rest } = loaded;
    return { ...rest, events: loaded.events.filter((e) => e.id !== at).map((e) => (e.id > at ? { ...e, id: e.id - 1 } : e)) };
  };
  const last = json.events.length;

  it('skips an event marked workerMayIgnore, of a type it does not know or of one it does, and keeps its place', () => {
    const ignorable = loadHistory(withEvent(last, { eventType: 'Unknown', workerMayIgnore: true }), { source: 'x' });
    expect(ignorable.uninterpreted).toEqual([{ id: last, type: 'Unknown', workerMayIgnore: true }]);
    expect(ignorable.events[last - 1]).toEqual({
      id: last,
      type: 'Unknown',
      time: '2026-12-03T10:00:00.000Z',
      payloads: [],
      attrs: { kind: 'other' },
    });
    expect(ignorable.events).toHaveLength(last + 1);
    expect(without(ignorable, last)).toEqual(expected);
    // A known type marked ignorable is not read either, whatever its attributes hold.
    const marked = loadHistory(
      withEvent(last, { eventType: 'EVENT_TYPE_TIMER_STARTED', worker_may_ignore: true, timerStartedEventAttributes: 7 }),
      {
        source: 'x',
      },
    );
    expect(marked.uninterpreted).toEqual([{ id: last, type: 'TimerStarted', workerMayIgnore: true }]);
    expect(without(marked, last)).toEqual(expected);
  });

  it('reads around an event of a type it does not know, named as the history names it', () => {
    for (const [eventType, type] of [
      ['UnknownEvent', 'UnknownEvent'],
      ['EVENT_TYPE_WORKFLOW_EXECUTION_TIME_POINT_ADVANCED', 'EVENT_TYPE_WORKFLOW_EXECUTION_TIME_POINT_ADVANCED'],
      [99, 'EventType 99'],
      ['EVENT_TYPE_UNSPECIFIED', 'Unspecified'],
      [undefined, '(no eventType)'],
    ] as const) {
      const loaded = loadHistory(withEvent(last, { eventType, somethingNewEventAttributes: { x: 1 } }), { source: 'x' });
      expect(loaded.uninterpreted, String(eventType)).toEqual([{ id: last, type, workerMayIgnore: false }]);
      expect(without(loaded, last)).toEqual(expected);
    }
  });

  it('reads a bare array of events, oldest or newest first, from objects and from files', async () => {
    expect(loadHistory(json.events, { source: 'x' })).toEqual(expected);
    expect(loadHistory(JSON.stringify([...json.events].reverse()), { source: 'x' })).toEqual(expected);
    const path = join(dir, 'bare.json');
    for (const events of [json.events, [...json.events].reverse()]) {
      await writeFile(path, JSON.stringify(events, null, 1));
      expect({ ...(await loadHistoryFile(path)), source: 'x' }).toEqual(expected);
    }
    // Newest first, with an ignorable event: its place is kept in the order the server wrote.
    const ignorable = withEvent(last, { eventType: 'Unknown', workerMayIgnore: true });
    await writeFile(path, JSON.stringify([...ignorable.events].reverse()));
    const loaded = await loadHistoryFile(path);
    expect(loaded.uninterpreted).toEqual([{ id: last, type: 'Unknown', workerMayIgnore: true }]);
    expect({ ...without(loaded, last), source: 'x' }).toEqual(expected);
  });
});

describe('another workflow is read, not refused', () => {
  it('records why the mapping does not find the mechanism: another workflow type, or an input that is not a RunInput', () => {
    const other = new HistoryBuilder('r');
    other.event('WorkflowExecutionStarted', { workflowType: { name: 'agentRun' }, input: { payloads: [] } });
    expect(loadHistory(other.toJson(), { source: 'o.json' }).events[0]?.attrs).toMatchObject({
      input: { unreadable: 'the workflow input is not a RunInput (nothing at [0])' },
    });
    const billing = new HistoryBuilder('r');
    billing.started({ runId: 'r', systemPrompt: 's', userRequest: 'u' });
    const renamed = JSON.parse(JSON.stringify(billing.toJson()).replace('"agentRun"', '"billing"'));
    expect(loadHistory(renamed, { source: 'w.json' }).events[0]?.attrs).toMatchObject({
      workflowType: 'billing',
      input: { unreadable: "workflow type billing is not the mapping's agentRun" },
    });
  });

  it("reads the API's { history: { events } } wrapper and events newest first, from objects and from files", async () => {
    const json = sampleRun().histories()[0] as { events: unknown[] };
    const expected = loadHistory(json, { source: 'x' });
    const newestFirst = { history: { events: [...json.events].reverse() } };
    expect(loadHistory(newestFirst, { source: 'x' })).toEqual(expected);
    const path = join(dir, 'newest-first.json');
    await writeFile(path, JSON.stringify(newestFirst));
    expect({ ...(await loadHistoryFile(path)), source: 'x' }).toEqual(expected);
    const gap = { events: [...json.events].reverse().filter((_, i) => i !== 3) };
    await writeFile(path, JSON.stringify(gap));
    expect((await loadError(() => loadHistoryFile(path))).message).toMatch(
      /newest-first\.json: event \d+ follows event \d+ newest first \(events missing or out of order\)$/,
    );
  });

  it('newest first, names a result whose scheduled event is missing, or an event out of place, as the one pass meets them', async () => {
    const events = [...(sampleRun().histories()[0] as { events: Record<string, unknown>[] }).events].reverse();
    const scheduled = events.findIndex((e) => String(e.eventType).endsWith('ACTIVITY_TASK_SCHEDULED'));
    const id = Number(events[scheduled]?.eventId);
    const path = join(dir, 'newest-first-broken.json');
    await writeFile(path, JSON.stringify({ events: events.filter((_, i) => i !== scheduled) }));
    expect((await loadError(() => loadHistoryFile(path))).message).toMatch(
      new RegExp(`activity result names scheduled event ${id}, which is not in the history$`),
    );
    // Its scheduled event moved past an older one: the result is read, the order is refused there.
    const moved = events.filter((_, i) => i !== scheduled);
    moved.splice(scheduled + 1, 0, events[scheduled] as Record<string, unknown>);
    await writeFile(path, JSON.stringify({ events: moved }));
    expect((await loadError(() => loadHistoryFile(path))).message).toMatch(
      new RegExp(`event ${id - 1} follows event ${id + 1} newest first \\(events missing or out of order\\)$`),
    );
  });
});

describe('a history in memory: its forms, its refusals, its name', () => {
  const json = sampleRun().histories()[0] as { events: Record<string, unknown>[] };
  const expected = loadHistory(json, { source: 'x' });

  it('reads a history given as UTF-8 bytes', () => {
    expect(loadHistory(new TextEncoder().encode(JSON.stringify(json)), { source: 'x' })).toEqual(expected);
    expect(loadHistory(Buffer.from(JSON.stringify(json)), { source: 'x' })).toEqual(expected);
  });

  it('parses a text as it is given, never re-encoded: a lone surrogate in a string stays one', () => {
    const run = new HistoryBuilder('run-\uD800');
    run.started({ runId: 'r', systemPrompt: 's', userRequest: 'u' });
    const text = JSON.stringify(run.toJson()).replace('\\ud800', '\uD800');
    expect(text).toContain('"run-\uD800"');
    expect(loadHistory(text, { source: 'x' }).events[0]?.attrs).toMatchObject({ runId: 'run-\uD800' });
  });

  it('refuses, as one line, a value with no events array at either place', async () => {
    for (const value of [null, 'null', {}, { history: null }, { history: { events: 'abc' } }, { events: 'abc' }]) {
      expect((await loadError(() => loadHistory(value as never, { source: 'v' }))).message, JSON.stringify(value)).toBe(
        'v: not a history: expected an object with an "events" array, or an array of events',
      );
    }
  });

  it('names a history given no source "history"', async () => {
    expect((await loadError(() => loadHistory('{'))).message).toMatch(/^history: not valid JSON/);
  });

  it('reads a history whose first event is event 1 oldest first, whatever follows', async () => {
    const [first, second] = json.events as [Record<string, unknown>, Record<string, unknown>];
    expect((await loadError(() => loadHistory([first, { ...second, eventId: '0' }], { source: 'z' }))).message).toBe(
      'z: event 0 follows event 1 (events missing or out of order)',
    );
  });

  it('historyLoader reads events handed one by one to the same model, and names its history "history" by default', async () => {
    const loader = historyLoader({ source: 'x' });
    for (const event of json.events) loader.add(event);
    expect(loader.finish()).toEqual(expected);
    expect((await loadError(() => historyLoader().finish())).message).toBe('history: history has no events');
  });
});

describe('a file is streamed once, and again only when the one pass cannot judge it', () => {
  const json = sampleRun().histories()[0] as { events: Record<string, unknown>[] };
  const expected = loadHistory(json, { source: 'x' });
  const n = json.events.length;
  const newestFirst = [...json.events].reverse();
  /** The first scheduled event newest first, its place and id: its result and started event come just before it. */
  const scheduled = newestFirst.findIndex((e) => String(e.eventType).endsWith('ACTIVITY_TASK_SCHEDULED'));
  const scheduledId = Number(newestFirst[scheduled]?.eventId);
  const namesScheduled = new RegExp(`activity result names scheduled event ${scheduledId}, which is not in the history$`);
  const file = async (name: string, value: unknown): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, JSON.stringify(value));
    return path;
  };
  beforeEach(() => {
    pulled.length = 0;
  });

  it('oldest first, and newest first with each result read before its scheduled event', async () => {
    expect({ ...(await loadHistoryFile(await file('once.json', json))), source: 'x' }).toEqual(expected);
    expect({ ...(await loadHistoryFile(await file('once-newest-first.json', newestFirst))), source: 'x' }).toEqual(expected);
    expect(pulled).toEqual([n, n]);
  });

  it('newest first, two activities at once: their results held together until both scheduled events are read', async () => {
    const run = new HistoryBuilder('r');
    run.started({ runId: 'r', systemPrompt: 's', userRequest: 'u' });
    run.workflowTask();
    const lookup = run.activityScheduled('lookup', { q: 1 });
    const fetch = run.activityScheduled('fetch', { q: 2 });
    run.activityCompleted(lookup, { a: 1 });
    run.activityFailed(fetch, 'down');
    run.workflowTask();
    run.completed('done');
    const { events } = run.toJson();
    const loaded = await loadHistoryFile(await file('at-once.json', { events: [...events].reverse() }));
    expect({ ...loaded, source: 'x' }).toEqual(loadHistory(events, { source: 'x' }));
    expect(loaded.events.filter((e) => e.attrs.kind === 'activity-closed')).toHaveLength(2);
    expect(pulled).toEqual([events.length]);
  });

  it('a history of one event in one pass; of none, refused as the three passes refuse it', async () => {
    const one = { events: json.events.slice(0, 1) };
    expect({ ...(await loadHistoryFile(await file('one.json', one))), source: 'x' }).toEqual(loadHistory(one, { source: 'x' }));
    expect(pulled).toEqual([1]);
    const none = await file('none.json', { events: [] });
    expect((await loadError(() => loadHistoryFile(none))).message).toBe(`${none}: history has no events`);
    expect(pulled).toEqual([1, 0, 0, 0]);
  });

  it('a file that is not a history is refused by the first pass, not read again', async () => {
    const numbers = await file('numbers.json', [1, 2]);
    expect((await loadError(() => loadHistoryFile(numbers))).message).toContain('not a history: events[0] is not an object');
    expect(pulled).toEqual([0]);
  });

  it('oldest first, an event missing: the one pass stops there; the three read two events, then up to it', async () => {
    const gap = await file('gap.json', { events: json.events.filter((_, i) => i !== 4) });
    expect((await loadError(() => loadHistoryFile(gap))).message).toBe(`${gap}: event 6 follows event 4 (events missing or out of order)`);
    expect(pulled).toEqual([5, 2, 5]);
  });

  it('newest first, a scheduled event missing: the one pass stops at the first event older than it', async () => {
    const missing = await file(
      'no-scheduled.json',
      newestFirst.filter((_, i) => i !== scheduled),
    );
    expect((await loadError(() => loadHistoryFile(missing))).message).toMatch(namesScheduled);
    // The three passes: two events for the order, all for the activity types, then up to the result.
    expect(pulled).toEqual([scheduled + 1, 2, n - 1, scheduled - 1]);
  });

  /** The first result oldest first, naming the event just before its scheduled one (no activity's: ids stay whole). */
  const result = json.events.findIndex((e) => String(e.eventType).endsWith('ACTIVITY_TASK_COMPLETED'));
  const resultEvent = json.events[result] as Record<string, unknown>;
  const attrs = resultEvent.activityTaskCompletedEventAttributes as Record<string, unknown>;
  const named = Number(attrs.scheduledEventId) - 1;
  const misnamed = json.events.map((e) =>
    e === resultEvent ? { ...e, activityTaskCompletedEventAttributes: { ...attrs, scheduledEventId: String(named) } } : e,
  );
  const namesNamed = new RegExp(`activity result names scheduled event ${named}, which is not in the history$`);

  it('oldest first, a result naming no scheduled activity: the one pass stops at the result, holding nothing', async () => {
    const path = await file('misnamed.json', { events: misnamed });
    expect((await loadError(() => loadHistoryFile(path))).message).toMatch(namesNamed);
    expect(pulled).toEqual([result + 1, 2, result + 1]);
  });

  it('newest first, a result naming no scheduled activity: the one pass stops at the first event older than the one named', async () => {
    const path = await file('misnamed-newest-first.json', [...misnamed].reverse());
    expect((await loadError(() => loadHistoryFile(path))).message).toMatch(namesNamed);
    // Newest first the result is at n - 1 - result; its started, scheduled and the named event follow it.
    const at = n - 1 - result;
    expect(pulled).toEqual([at + 5, 2, n, at + 1]);
  });

  it('newest first, an event after event 1 is refused, even a result still waiting for its scheduled event', async () => {
    const late = {
      eventId: '3',
      eventType: 'EVENT_TYPE_ACTIVITY_TASK_COMPLETED',
      activityTaskCompletedEventAttributes: { scheduledEventId: '2' },
    };
    const path = await file('after-event-1.json', [...newestFirst, late]);
    expect((await loadError(() => loadHistoryFile(path))).message).toBe(
      `${path}: event 3 follows event 1 newest first (events missing or out of order)`,
    );
    expect(pulled).toEqual([n + 1, 2, n + 1, n + 1]);
  });

  it('newest first, the file ending between a result and its scheduled event: the result is named', async () => {
    const cut = await file('cut.json', newestFirst.slice(0, scheduled));
    expect((await loadError(() => loadHistoryFile(cut))).message).toMatch(namesScheduled);
    expect(pulled).toEqual([scheduled, 2, scheduled, scheduled - 1]);
  });
});
