/**
 * `requests.accepted`: every request a run sent to longrun's mocks is one a real API takes. The
 * mocks refuse what a provider refuses (a malformed body, a tool not offered, a compaction
 * digest that does not show a message's windows) with a 400 naming the field, and a kernel
 * turns many of those into failures it survives by design: a compaction that fails, a tool
 * error fed back to the model. The history then reads as a run that weathered a fault no
 * scenario injected. Counted as the mocks answer, per run id and binary (longrun's workers name
 * theirs in a header; a foreign worker's requests go by the run id alone, shared by every
 * binary's run of that id); a refusal no run can be told from counts against every run judged
 * after it, so that it cannot be lost.
 */
import type { MockRecord, MockRecorder } from '../../mocks/index.ts';
import type { InvariantResult } from '../checks/index.ts';

/** A refusal's text in the evidence, cut here: the mocks name the field first. */
const REFUSAL_CHARS = 300;

export class RequestRefusals {
  /** By run id, then by the binary that sent them ('' when no header named one). */
  private readonly requests = new Map<string, Map<string, number>>();
  private readonly refused = new Map<string, MockRecord[]>();
  private readonly unowned: MockRecord[] = [];
  private readonly unsubscribe: () => void;

  /** Fed by a recorder as it records, or by records gathered from several mock replicas (replica-refusals.ts). */
  constructor(recorder: Pick<MockRecorder, 'onRecord'>) {
    this.unsubscribe = recorder.onRecord((record) => this.add(record));
  }

  private add(record: MockRecord): void {
    if (record.runId !== null) {
      const byBinary = this.requests.get(record.runId) ?? new Map<string, number>();
      byBinary.set(record.binary ?? '', (byBinary.get(record.binary ?? '') ?? 0) + 1);
      this.requests.set(record.runId, byBinary);
    }
    if (record.refusal === null) return;
    if (record.runId === null) this.unowned.push(record);
    else {
      const refused = this.refused.get(record.runId);
      if (refused) refused.push(record);
      else this.refused.set(record.runId, [record]);
    }
  }

  /**
   * The verdict of the run `runId` on `binaries` (more than one when another binary took it
   * over), from every request the mocks have answered so far: the run has ended.
   */
  verdict(runId: string, binaries: readonly string[]): InvariantResult {
    const sentBy = (record: MockRecord) => record.binary === null || binaries.includes(record.binary);
    const refused = [...(this.refused.get(runId) ?? []).filter(sentBy), ...this.unowned];
    const counts = this.requests.get(runId) ?? new Map<string, number>();
    // Each binary once: a run its own binary served names it twice ([binary, ...servedBy]).
    const count = [...new Set(['', ...binaries])].reduce((sum, binary) => sum + (counts.get(binary) ?? 0), 0);
    if (refused.length === 0) {
      return { id: 'requests.accepted', status: 'pass', evidence: [`${count} requests to the mocks, none refused`] };
    }
    return { id: 'requests.accepted', status: 'fail', evidence: refused.map(describeRefusal) };
  }

  close(): void {
    this.unsubscribe();
  }
}

function describeRefusal(record: MockRecord): string {
  const what = record.target === 'sandbox' ? `sandbox request (${record.tool})` : `${record.target} model request`;
  const turn = record.turn === null ? '' : ` of turn ${record.turn}`;
  const owner = record.runId === null ? ' (no run could be told from it)' : '';
  return `${what}${turn}${owner} refused with HTTP ${record.status}: ${(record.refusal ?? '').slice(0, REFUSAL_CHARS)}`;
}
