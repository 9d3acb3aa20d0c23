/**
 * `journal.append`: hashes the events (sha256 of canonical JSON) and returns the hashes, after
 * checking that each event of the batch names the hash of the one before it.
 */
import { ApplicationFailure } from '@temporalio/common';
import { FAILURE_TYPE } from '../../contract/failure-types.ts';
import { journalHash } from '../../contract/journal-hash.ts';
import { JOURNAL_TYPES, type JournalAppendInput, type JournalAppendResult } from '../../contract/kernel-api.ts';

export async function journalAppend(input: JournalAppendInput): Promise<JournalAppendResult> {
  if (!Array.isArray(input?.events) || input.events.length === 0) throw invalid('events must be a non-empty array');
  const hashes: string[] = [];
  input.events.forEach((event, index) => {
    if (!(JOURNAL_TYPES as readonly string[]).includes(event.type))
      throw invalid(`events[${index}].type "${event.type}" is not a journal type`);
    const previous = hashes[index - 1];
    if (previous !== undefined && event.prevHash !== previous) {
      throw invalid(`events[${index}].prevHash does not name the hash of events[${index - 1}]`);
    }
    hashes.push(journalHash(event));
  });
  return { hashes };
}

function invalid(message: string): ApplicationFailure {
  return ApplicationFailure.create({
    type: FAILURE_TYPE.invalidJournal,
    message,
    nonRetryable: true,
  });
}
