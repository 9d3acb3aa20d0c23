/** Every request the mocks receive, in arrival order, for tests and reports to read. */
import type { FaultKind } from '../faults/fault-profile.ts';

export type MockTarget = 'agent' | 'compaction' | 'sandbox';

export interface MockRecord {
  /** 1-based arrival order over all targets. */
  seq: number;
  target: MockTarget;
  runId: string | null;
  /** The binary whose worker sent it (`x-longrun-binary`, longrun's own workers), or null. */
  binary: string | null;
  turn: number | null;
  /** The requested model (agent and compaction), null for the sandbox. */
  model: string | null;
  /** The sandbox tool, null for the model API. */
  tool: string | null;
  stream: boolean;
  requestBytes: number;
  /**
   * The input tokens the provider billed, where its usage says (the Responses and Messages
   * requests whose context it reads, provider-side compaction included: a carried compaction
   * bills its summary, a compacting request both passes); absent: requestBytes / BYTES_PER_TOKEN.
   */
  inputTokens?: number;
  /** Body bytes sent back; 0 when none was. */
  responseBytes: number;
  /** HTTP status sent; 0 when the connection was reset or the client gave up first. */
  status: number;
  fault: FaultKind | null;
  /**
   * Why the mock refused the request as a real API would (a 400 or 404 naming the field), or
   * null: the run sent something no provider takes. An injected fault is no refusal.
   */
  refusal: string | null;
}

export class MockRecorder {
  private entries: MockRecord[] = [];
  private seq = 0;
  private readonly listeners = new Set<(record: MockRecord) => void>();

  record(entry: Omit<MockRecord, 'seq'>): MockRecord {
    const full = { seq: ++this.seq, ...entry };
    this.entries.push(full);
    for (const listener of this.listeners) listener(full);
    return full;
  }

  /** Called with every request as it is answered (chaos strikes at a turn seen here); returns the unsubscribe. */
  onRecord(listener: (record: MockRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  records(): readonly MockRecord[] {
    return this.entries;
  }

  reset(): void {
    this.entries = [];
    this.seq = 0;
  }
}
