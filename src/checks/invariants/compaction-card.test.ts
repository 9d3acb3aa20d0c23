import { describe, expect, it } from 'vitest';
import { extractIdentifiers } from '../../contract/identifiers.ts';
import { ACTIVITY } from '../../contract/kernel-api.ts';
import { CARD_SECTIONS } from '../../contract/limits.ts';
import { resolveContext } from '../context.ts';
import { DEFAULT_KERNEL_MAPPING } from '../mapping.ts';
import { AgentRunHistory, resultOf, SMALL_LIMITS, validCard } from '../testing/index.ts';
import { requiredIdentifiers, sectionProblem } from './compaction-card.ts';

function overTrigger(): AgentRunHistory {
  const run = new AgentRunHistory({ limits: SMALL_LIMITS });
  while (Buffer.byteLength(JSON.stringify(run.request())) <= run.limits.compactionTriggerBytes) run.turn();
  return run;
}

describe('compaction.card', () => {
  it('passes cards within size, with the six sections, keeping the required identifiers', () => {
    const run = new AgentRunHistory({ limits: SMALL_LIMITS }).play(25);
    const result = resultOf(run, 'compaction.card');
    expect(result.status).toBe('pass');
    expect(result.evidence[0]).toMatch(/context\.compacted \(turn \d+\): card [\d,]+ bytes, six sections, identifiers kept$/);
  });

  it('fails a card over the card max, from the activity and in the journal', () => {
    const run = overTrigger();
    run.compact({ card: validCard(run.dialog, ` ${'x'.repeat(9000)}`) }).turn();
    const result = resultOf(run, 'compaction.card');
    expect(result.evidence).toEqual([
      expect.stringMatching(/^event \d+: compact_context result card 9,\d{3} bytes > card max 8,192$/),
      expect.stringMatching(/^event \d+: context\.compacted \(turn \d+\): card 9,\d{3} bytes > card max 8,192$/),
    ]);
  });

  it('judges the card max at the exact byte, whatever the tail max (here larger than the card)', () => {
    const cardOf = (bytes: number, run: AgentRunHistory) => {
      const card = validCard(run.dialog, ' ');
      return `${card}${'x'.repeat(bytes - Buffer.byteLength(card))}`;
    };
    const status = (bytes: number) => {
      const run = overTrigger();
      expect(run.limits.tailMaxBytes).toBeGreaterThan(run.limits.cardMaxBytes);
      return resultOf(run.compact({ card: cardOf(bytes, run) }).turn(), 'compaction.card').status;
    };
    expect(status(8192)).toBe('pass');
    expect(status(8193)).toBe('fail');
  });

  it('fails a card the kernel rejected although it is within the card max with the six sections, up to the exact byte', () => {
    const rejectedAt = (bytes: number, edit: (card: string) => string = (card) => card) => {
      const run = overTrigger();
      const card = validCard(run.dialog, ' ');
      return resultOf(
        run.compact({ card: edit(`${card}${'x'.repeat(bytes - Buffer.byteLength(card))}`), outcome: 'invalid-card' }).turn(),
        'compaction.card',
      );
    };
    expect(rejectedAt(8192).evidence).toEqual([
      expect.stringMatching(
        /^event \d+: compact_context rejected a card of 8,192 bytes, within the card max 8,192, with the six sections$/,
      ),
    ]);
    expect(rejectedAt(2000).status).toBe('fail');
    // Rightly rejected: one byte over, or a section missing.
    expect(rejectedAt(8193).status).toBe('pass');
    expect(rejectedAt(2000, (card) => card.replace('## Verified', '## Checked')).status).toBe('pass');
  });

  it('fails a good card the activity returned that the workflow journaled as a failed compaction', () => {
    const thrownAway = resultOf(overTrigger().compact({ outcome: 'rejected' }).turn(), 'compaction.card');
    expect(thrownAway.evidence).toEqual([
      expect.stringMatching(
        /^event \d+: compact_context returned a card of [\d,]+ bytes, within the card max 8,192, with the six sections, but the journal has context\.compaction_failed for turn \d+$/,
      ),
    ]);
    const run = overTrigger();
    const swapped = validCard(run.dialog).replace('## Verified', '## Checked');
    expect(resultOf(run.compact({ card: swapped, outcome: 'rejected' }).turn(), 'compaction.card').status).toBe('pass');
  });

  it('fails a good card thrown away even when the next try returns the same card and the journal takes it', () => {
    const run = overTrigger();
    const card = validCard(run.dialog);
    const result = resultOf(run.compact({ card, outcome: 'rejected' }).compact({ card }).turn(), 'compaction.card');
    expect(result.evidence).toContainEqual(
      expect.stringMatching(
        /^event \d+: compact_context returned a card of [\d,]+ bytes, .* but the journal has context\.compaction_failed/,
      ),
    );
  });

  it('fails a card whose sections are missing, out of order or preceded by text', () => {
    const run = overTrigger();
    const swapped = validCard(run.dialog).replace('## Verified', '## Checked');
    run.compact({ card: swapped }).turn();
    expect(resultOf(run, 'compaction.card').evidence[0]).toContain(
      'sections are [## Task | ## Decisions | ## Files and artifacts | ## Checked | ## Open questions | ## Next step], not the six in order',
    );
    expect(sectionProblem(`Summary first.\n${validCard([])}`)).toBe('text before ## Task');
    expect(sectionProblem(CARD_SECTIONS.join('\n'))).toBeNull();
  });

  it('fails a card that drops identifiers of the user request or of the latest tool output', () => {
    const run = overTrigger();
    const card = validCard(run.dialog).replace('OPS-4821', 'the ticket');
    run.compact({ card }).turn();
    const result = resultOf(run, 'compaction.card');
    expect(result.evidence[0]).toMatch(/card keeps (\d+) of \d+ required identifiers verbatim \(minimum share 1\); missing: OPS-4821$/);
    expect(resultOf(run, 'compaction.card', { card: { minIdentifierShare: 0.5 } }).status).toBe('pass');
  });

  it('reads headings as whole lines: a blank line or a trailing space is no problem, an indented or missing heading is', () => {
    const [task, ...rest] = CARD_SECTIONS;
    expect(sectionProblem(`\n\n${CARD_SECTIONS.join('\nbody ## not a heading\n')}`)).toBeNull();
    expect(sectionProblem(` \t\n${CARD_SECTIONS.join('\n')}`)).toBeNull();
    expect(sectionProblem(` .\n${CARD_SECTIONS.join('\n')}`)).toBe('text before ## Task');
    expect(sectionProblem([`${task} `, ...rest].join('\n'))).toBeNull();
    expect(sectionProblem([`  ${task}`, ...rest].join('\n'))).toMatch(/not the six in order$/);
    expect(sectionProblem(CARD_SECTIONS.slice(0, -1).join('\n'))).toMatch(/not the six in order$/);
  });

  it("fails a card that drops an identifier of the latest tool output the compaction's input names", () => {
    const run = overTrigger();
    const lastTool = [...run.dialog].reverse().find((m) => m.role === 'tool');
    const fromTool = extractIdentifiers(lastTool?.content as string).filter((id) => !run.input.userRequest.includes(id));
    const dropped = fromTool[0] as string;
    expect(dropped).toBeDefined();
    run.compact({ card: validCard(run.dialog).replaceAll(dropped, 'it') }).turn();
    expect(resultOf(run, 'compaction.card').evidence[0]).toMatch(new RegExp(`missing: ${dropped}$`));
  });

  it('asks nothing of a card when the user request and the tools name no identifier', () => {
    const run = new AgentRunHistory({ limits: SMALL_LIMITS, userRequest: 'Tidy up the code.' });
    while (Buffer.byteLength(JSON.stringify(run.request())) <= run.limits.compactionTriggerBytes) run.turn({ tools: ['done'] });
    expect(resultOf(run.compact().turn(), 'compaction.card').status).toBe('pass');
  });

  it('fails a journaled card that no compaction returned, and a compaction the journal does not record', () => {
    const run = overTrigger();
    run.compact({ journal: false });
    run.journal('context.compacted', { turn: run.turnNumber + 1, card: validCard(run.dialog, ' edited') });
    run.turn();
    expect(resultOf(run, 'compaction.card').evidence).toEqual([
      expect.stringMatching(
        /compact_context completed but the journal has neither context\.compacted with its card nor context\.compaction_failed$/,
      ),
      expect.stringMatching(/context\.compacted \(turn \d+\): card is not the result of any compact_context$/),
    ]);
  });

  it('fails a context.compacted that carries no card', () => {
    const run = overTrigger();
    run.compact({ record: ({ card: _, ...data }) => data }).turn();
    expect(resultOf(run, 'compaction.card').evidence).toEqual([
      expect.stringMatching(/compact_context completed but the journal has neither context\.compacted with its card nor/),
      expect.stringMatching(/^event \d+: context\.compacted \(turn \d+\) has no card$/),
    ]);
  });

  it('charges a card journaled as failed with being thrown away up to the card max, to the byte', () => {
    const thrownAway = (bytes: number) => {
      const run = overTrigger();
      const card = validCard(run.dialog, ' ');
      return resultOf(
        run.compact({ card: `${card}${'x'.repeat(bytes - Buffer.byteLength(card))}`, outcome: 'rejected' }).turn(),
        'compaction.card',
      );
    };
    expect(thrownAway(8192).evidence).toEqual([
      expect.stringMatching(/returned a card of 8,192 bytes, within the card max 8,192, with the six sections, but/),
    ]);
    // One byte over: rightly rejected, and failed only for its size.
    expect(thrownAway(8193).evidence).toEqual([
      expect.stringMatching(/^event \d+: compact_context result card 8,193 bytes > card max 8,192$/),
    ]);
  });

  it('names a compaction by the event that closed it', () => {
    const run = overTrigger();
    run.compact({ card: `${validCard(run.dialog)}${'x'.repeat(9000)}` });
    const scheduled = run.history.events.find(
      (event) =>
        (event.activityTaskScheduledEventAttributes as { activityType?: { name: string } })?.activityType?.name === ACTIVITY.compactContext,
    );
    // Scheduled, started, completed: the evidence names the completion.
    const closed = Number(scheduled?.eventId) + 2;
    expect(resultOf(run.turn(), 'compaction.card').evidence[0]).toMatch(new RegExp(`^event ${closed}: compact_context result card`));
  });

  it('judges a run that ends while a compaction is still open, without a card to read', () => {
    const run = overTrigger();
    run.history.workflowTask();
    const input = {
      runId: run.input.runId,
      turn: run.turnNumber + 1,
      messages: run.dialog,
      settings: run.input.settings,
      cardMaxBytes: 8192,
    };
    run.history.activityScheduled(ACTIVITY.compactContext, input);
    expect(resultOf(run, 'compaction.card')).toMatchObject({ status: 'pass', evidence: [] });
  });

  it('is not applicable without compaction', () => {
    expect(resultOf(new AgentRunHistory().turn(), 'compaction.card').status).toBe('not-applicable');
  });
});

describe('required identifiers', () => {
  const ctx = resolveContext({}, DEFAULT_KERNEL_MAPPING, {});

  it('are those of the user request, then of the most recent tool outputs the context names', () => {
    const recent = [['src/a.ts', 'run-42'], ['src/old.ts']];
    expect(requiredIdentifiers('Fix OPS-4821 in services/api/main.go', recent, ctx)).toEqual([
      'OPS-4821',
      'services/api/main.go',
      'src/a.ts',
      'run-42',
    ]);
    const two = resolveContext({ card: { recentToolOutputs: 2 } }, DEFAULT_KERNEL_MAPPING, {});
    expect(requiredIdentifiers('', recent, two)).toEqual(['src/a.ts', 'run-42', 'src/old.ts']);
  });

  it('stop at half the card, in order', () => {
    const many = Array.from({ length: 2000 }, (_, i) => `id-${1000 + i}`);
    const required = requiredIdentifiers('', [many], ctx);
    expect(required[0]).toBe('id-1000');
    expect(required.reduce((sum, id) => sum + id.length + 1, 0)).toBeLessThanOrEqual(4096);
    expect(required.length).toBe(Math.floor(4096 / 8));
  });
});
