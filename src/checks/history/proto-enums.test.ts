import proto from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { CONTINUE_AS_NEW_INITIATORS, EVENT_TYPES, WORKFLOW_TASK_FAILED_CAUSES } from './proto-enums.ts';
import { continueAsNewInitiator, eventTypeName, workflowTaskFailedCause } from './proto-values.ts';

const enums = proto.temporal.api.enums.v1;

/** name -> number of a protobufjs enum object (it maps both ways). */
function numbersByName(values: Record<string, string | number>): Record<string, number> {
  return Object.fromEntries(Object.entries(values).filter((entry): entry is [string, number] => typeof entry[1] === 'number'));
}

function tableByName(prefix: string, names: readonly string[]): Record<string, number> {
  return Object.fromEntries(names.map((name, number) => [`${prefix}${name}`, number]));
}

describe("the checks' copy of Temporal's enums", () => {
  it.each([
    ['EventType', 'EVENT_TYPE_', EVENT_TYPES, enums.EventType],
    ['WorkflowTaskFailedCause', 'WORKFLOW_TASK_FAILED_CAUSE_', WORKFLOW_TASK_FAILED_CAUSES, enums.WorkflowTaskFailedCause],
    ['ContinueAsNewInitiator', 'CONTINUE_AS_NEW_INITIATOR_', CONTINUE_AS_NEW_INITIATORS, enums.ContinueAsNewInitiator],
  ])('%s holds what @temporalio/proto defines', (_name, prefix, names, values) => {
    expect(tableByName(prefix, names)).toEqual(numbersByName(values as unknown as Record<string, string | number>));
  });

  it('reads every spelling of a constant, and refuses what is none', () => {
    expect(eventTypeName('EVENT_TYPE_ACTIVITY_TASK_SCHEDULED')).toBe('ActivityTaskScheduled');
    expect(eventTypeName('ActivityTaskScheduled')).toBe('ActivityTaskScheduled');
    expect(eventTypeName(enums.EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)).toBe('ActivityTaskScheduled');
    for (const bad of ['EVENT_TYPE_NOPE', 'Nope', 1.5, -1, 999, '10', 'toString', null]) expect(eventTypeName(bad)).toBeUndefined();
    expect(workflowTaskFailedCause('WORKFLOW_TASK_FAILED_CAUSE_PAYLOADS_TOO_LARGE')).toBe('PAYLOADS_TOO_LARGE');
    expect(workflowTaskFailedCause('PayloadsTooLarge')).toBe('PAYLOADS_TOO_LARGE');
    expect(workflowTaskFailedCause(undefined)).toBe('UNSPECIFIED');
    expect(continueAsNewInitiator(enums.ContinueAsNewInitiator.CONTINUE_AS_NEW_INITIATOR_RETRY)).toBe('RETRY');
  });
});
