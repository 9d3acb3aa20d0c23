/**
 * Activities whose input holds a conversation (Chat `messages`, Responses `input` items and
 * their `instructions`, the Agents SDK's `system_instructions`): the model calls of a kernel the
 * mapping does not name, so that `check` can say which mapping would judge them. Read from the
 * raw events of a history file, its first events only: a model call comes at the first turn.
 */
import { streamHistoryEvents } from './history/event-stream.ts';
import { decodePayloads } from './history/payloads.ts';

const EVENTS_READ = 2_000;
const DEPTH = 4;
const INSTRUCTIONS = ['instructions', 'system_instructions', 'systemInstructions'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a value holds, at some shallow depth, a conversation as a model API takes it. */
export function holdsConversation(value: unknown, depth = 0): boolean {
  if (depth > DEPTH) return false;
  if (Array.isArray(value)) return value.slice(0, 4).some((item) => holdsConversation(item, depth + 1));
  if (!isRecord(value)) return false;
  const messages = value.messages;
  if (Array.isArray(messages) && messages.some((m) => isRecord(m) && typeof m.role === 'string')) return true;
  const input = value.input;
  const items =
    Array.isArray(input) && input.some((item) => isRecord(item) && (typeof item.role === 'string' || typeof item.type === 'string'));
  const instructed = INSTRUCTIONS.some((key) => typeof value[key] === 'string');
  if (items || (instructed && input !== undefined)) return true;
  return Object.values(value).some((child) => holdsConversation(child, depth + 1));
}

/** The activity types of the file, other than `known`, whose first input holds a conversation; [] on any trouble. */
export async function modelLikeActivities(path: string, known: ReadonlySet<string>): Promise<string[]> {
  const seen = new Set<string>(known);
  const found: string[] = [];
  let read = 0;
  try {
    for await (const event of streamHistoryEvents(path)) {
      if (++read > EVENTS_READ) break;
      const attrs = isRecord(event) ? event.activityTaskScheduledEventAttributes : undefined;
      if (!isRecord(attrs) || !isRecord(attrs.activityType)) continue;
      const type = attrs.activityType.name;
      if (typeof type !== 'string' || seen.has(type)) continue;
      seen.add(type);
      let inputs: unknown[] = [];
      try {
        inputs = decodePayloads(attrs.input);
      } catch {
        continue; // not JSON: not a conversation this can read
      }
      if (holdsConversation(inputs)) found.push(type);
    }
  } catch {
    return found; // a file the loader already judged or named; the hint is only a hint
  }
  return found;
}
