import type { Payload } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { activityInputsLeftOut } from './replay-activity-inputs.ts';

const request: Payload = {
  metadata: { encoding: new TextEncoder().encode('json/plain') },
  data: new TextEncoder().encode('{"messages":[]}'),
};

describe('activityInputsLeftOut', () => {
  it("empties a scheduled activity's input and keeps its encoding", async () => {
    const [left] = await activityInputsLeftOut.encode([request], {
      type: 'activity',
      namespace: 'default',
      activityId: '1',
      isLocal: false,
    });
    expect(left?.data).toHaveLength(0);
    expect(left?.metadata).toEqual(request.metadata);
  });

  it("keeps the workflow's own payloads (its result, its ContinueAsNew input) and everything it decodes", async () => {
    expect(await activityInputsLeftOut.encode([request], { type: 'workflow', namespace: 'default', workflowId: 'w' })).toEqual([request]);
    expect(await activityInputsLeftOut.encode([request])).toEqual([request]);
    expect(await activityInputsLeftOut.decode([request])).toEqual([request]);
  });
});
