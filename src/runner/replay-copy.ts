/**
 * What the replay keeps of a history page. The SDK's replay (sdk-core) matches a scheduled
 * activity to the workflow's command by its activity id and type only: the activity's input is
 * never read (core's activity state machine), and it is most of a history's bytes (a max-size
 * run's model requests: 136 of its 139 MB). So the copy leaves the inputs out, and is made
 * afresh, so that it holds none of the page's buffer (a decoded page's bytes fields are views
 * into the whole page).
 */
import proto, { type temporal } from '@temporalio/proto';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

const { History } = proto.temporal.api.history.v1;

export interface ReplayCopyOptions {
  /** Keep the activities' inputs: for a replayer that may compare them (a foreign SDK's). */
  activityInputs: boolean;
}

export function replayCopy(events: readonly HistoryEvent[], options: ReplayCopyOptions): HistoryEvent[] {
  const kept = options.activityInputs ? events : events.map(withoutActivityInput);
  return History.decode(History.encode({ events: [...kept] }).finish()).events;
}

function withoutActivityInput(event: HistoryEvent): HistoryEvent {
  const scheduled = event.activityTaskScheduledEventAttributes;
  if (!scheduled?.input) return event;
  return { ...event, activityTaskScheduledEventAttributes: { ...scheduled, input: null } };
}
