import { FAILURE_TYPE } from '../../contract/failure-types.ts';
import { extractIdentifiers } from '../../contract/identifiers.ts';
import { CARD_SECTIONS } from '../../contract/limits.ts';
import type { ResolvedContext } from '../context.ts';
import { cardOf, compactedEntryOf, journalOf } from '../run/compactions.ts';
import type { Activity, RunView } from '../run/run-view.ts';
import { bytes, type HistoryInvariant, judge } from '../verdict.ts';

/** Why the card's sections are not exactly CARD_SECTIONS in order, or null. */
export function sectionProblem(card: string): string | null {
  const lines = card.split('\n').map((line) => line.trimEnd());
  const headings = lines.filter((line) => /^## /.test(line));
  const expected: readonly string[] = CARD_SECTIONS;
  if (headings.length !== expected.length || headings.some((h, i) => h !== expected[i])) {
    return `sections are [${headings.join(' | ')}], not the six in order`;
  }
  const first = lines.find((line) => line.trim() !== '');
  return first === expected[0] ? null : `text before ${expected[0]}`;
}

/**
 * The identifiers a card must keep: those of the user request, then those of the most recent
 * `recentToolOutputs` tool outputs sent to compaction (most recent first), as many as fit in half
 * the card (each counted with one separator byte); the card holds the rest of the state too.
 */
export function requiredIdentifiers(userRequest: string, recentTools: readonly string[][], ctx: ResolvedContext): string[] {
  const candidates = [...extractIdentifiers(userRequest), ...recentTools.slice(0, ctx.card.recentToolOutputs).flat()];
  const required: string[] = [];
  let budget = Math.floor(ctx.limits.cardMaxBytes / 2);
  for (const identifier of new Set(candidates)) {
    const cost = Buffer.byteLength(identifier) + 1;
    if (cost > budget) break;
    budget -= cost;
    required.push(identifier);
  }
  return required;
}

function identifierFailure(run: RunView, ctx: ResolvedContext, card: string, source: Activity | undefined): string | null {
  const recent = source?.input.kind === 'compact-context' ? source.input.recentToolIdentifiers : [];
  const required = requiredIdentifiers(run.input.userRequest, recent, ctx);
  const missing = required.filter((identifier) => !card.includes(identifier));
  const share = required.length === 0 ? 1 : (required.length - missing.length) / required.length;
  if (share >= ctx.card.minIdentifierShare) return null;
  return `keeps ${required.length - missing.length} of ${required.length} required identifiers verbatim (minimum share ${ctx.card.minIdentifierShare}); missing: ${missing.slice(0, 10).join(', ')}`;
}

/**
 * The card a compaction rejected as invalid, when its failure carries it (our kernel puts it in
 * the InvalidCard failure's details; a kernel that does not is not judged on it).
 */
function rejectedCard(compaction: Activity): string | undefined {
  const { failure } = compaction;
  if (compaction.outcome !== 'failed' || !failure?.types.includes(FAILURE_TYPE.invalidCard)) return undefined;
  const [card] = failure.details ?? [];
  return typeof card === 'string' ? card : undefined;
}

export const compactionCard: HistoryInvariant = {
  id: 'compaction.card',
  appliesTo: 'kernel',
  description:
    'card <= card max (8 KB), the six sections, identifiers from the digest kept verbatim; a card within the max with the six sections is not rejected nor thrown away',
  check(run, ctx) {
    const max = ctx.limits.cardMaxBytes;
    const failures: string[] = [];
    const notes: string[] = [];
    const compactions = run.executions.flatMap((e) => e.activities).filter((a) => a.type === run.mapping.activities.compactContext);
    const compacted = journalOf(run, 'context.compacted');
    const failed = journalOf(run, 'context.compaction_failed');
    for (const compaction of compactions) {
      const where = run.at(compaction.execution, compaction.closed?.id ?? compaction.scheduled.id);
      const rejected = rejectedCard(compaction);
      // Measured here, never through the kernel's own size check: a kernel that rejects good cards never compacts.
      if (rejected !== undefined && Buffer.byteLength(rejected) <= max && sectionProblem(rejected) === null) {
        failures.push(
          `${where}: compact_context rejected a card of ${bytes(Buffer.byteLength(rejected))} bytes, within the card max ${bytes(max)}, with the six sections`,
        );
      }
      if (compaction.result?.kind !== 'compact-context') continue;
      const { card } = compaction.result;
      const size = Buffer.byteLength(card);
      if (size > max) failures.push(`${where}: compact_context result card ${bytes(size)} bytes > card max ${bytes(max)}`);
      const turn = compaction.input.kind === 'compact-context' ? compaction.input.turn : undefined;
      const accepted = compactedEntryOf(run, compaction) !== undefined;
      const failedThere = failed.some((entry) => turn === undefined || entry.event.turn === turn);
      // A good card the workflow then journaled as failed (its rebuild threw, say) was thrown away.
      if (!accepted && failedThere && size <= max && sectionProblem(card) === null) {
        failures.push(
          `${where}: compact_context returned a card of ${bytes(size)} bytes, within the card max ${bytes(max)}, with the six sections, but the journal has context.compaction_failed for turn ${turn}`,
        );
      }
      if (!accepted && !failedThere) {
        failures.push(
          `${where}: compact_context completed but the journal has neither context.compacted with its card nor context.compaction_failed`,
        );
      }
    }
    for (const entry of compacted) {
      const where = `${run.at(entry.activity.execution, entry.activity.scheduled.id)}: context.compacted (turn ${entry.event.turn})`;
      const card = cardOf(entry);
      if (card === undefined) {
        failures.push(`${where} has no card`);
        continue;
      }
      const size = Buffer.byteLength(card);
      const problems: string[] = [];
      if (size > max) problems.push(`${bytes(size)} bytes > card max ${bytes(max)}`);
      const sections = sectionProblem(card);
      if (sections) problems.push(sections);
      const source = compactions.find((c) => compactedEntryOf(run, c) === entry);
      if (!source) problems.push('is not the result of any compact_context');
      const identifiers = identifierFailure(run, ctx, card, source);
      if (identifiers) problems.push(identifiers);
      if (problems.length > 0) failures.push(`${where}: card ${problems.join('; ')}`);
      else notes.push(`${where}: card ${bytes(size)} bytes, six sections, identifiers kept`);
    }
    const exercised = compactions.length + compacted.length > 0;
    if (!exercised) notes.push('no compaction');
    return judge(this.id, failures, notes, exercised);
  },
};
