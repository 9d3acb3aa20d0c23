/**
 * What a history's External Storage references are, as the checks record them (read by
 * external-storage.ts; kept apart so that the history's model can name them).
 */

/** A stored payload as a driver returns it (`Payload`): metadata and data as bytes or base64. */
export interface StoredPayload {
  metadata?: Record<string, Uint8Array | string> | null;
  data?: Uint8Array | string | null;
}

/**
 * The stored payloads a caller fetched before judging, by `referenceKey`: the payload, or
 * `'missing'` where the store has no object for the reference. A reference whose key is absent
 * counts as missing too (the caller did not find it).
 */
export type StoredPayloads = ReadonlyMap<string, StoredPayload | 'missing'>;

/** A reference's identity: the driver that stored the payload and the claim it gave back. */
export interface StorageReference {
  driverName: string;
  claimData: Readonly<Record<string, string>>;
}

/** Where in the history a reference stands, and what it says. */
export interface PayloadReference extends StorageReference {
  eventId: number;
  /** PascalCase event type ("ActivityTaskScheduled"). */
  eventType: string;
  /** The payload field as `LoadedHistory` sizes name it ("input", "result", "details.patch-data"). */
  field: string;
  /** The payload's place in its field (0 for a single Payload). */
  index: number;
  /** What the field is: "activity input", "continue-as-new input", "update input"... */
  place: string;
  /** The activity an activity event concerns, where known. */
  activityType?: string;
  /** `referenceKey` of the reference (empty when it is malformed). */
  key: string;
  /** Serialized bytes of the reference payload: what it takes in the history. */
  referenceBytes: number;
  /** The stored payload's serialized size as the reference states it (`externalPayloads[0].sizeBytes`); absent when unstated. */
  sizeBytes?: number;
  /** Why the reference cannot be read (bad JSON, no driverName, encoded by a codec); absent when it reads. */
  problem?: string;
}

/** A reference as the checks resolved it when the history was loaded. */
export interface ResolvedReference extends PayloadReference {
  /**
   * `resolved`: the stored payload was read in its place; `missing`: the store has no object
   * for it (or the stored payloads given do not name it); `no-store`: no stored payloads were
   * given; `unreadable`: the reference itself cannot be read (`problem`).
   */
  resolution: 'resolved' | 'missing' | 'no-store' | 'unreadable';
  /** Serialized bytes of the stored payload, measured, when resolved. */
  storedBytes?: number;
  /** Whether the checks read this payload's contents (the mapping's activities, the workflow's input and result). */
  read: boolean;
}
