import { describe, expect, it } from 'vitest';
import { BINARY_HEADER } from '../contract/run-marker.ts';
import { activitiesConfigFor } from './binary-activities.ts';

const host = { modelBaseUrl: 'http://model.test/v1', sandboxBaseUrl: 'http://sandbox.test/v1', headers: { 'x-team': 'ops' } };

describe('activitiesConfigFor', () => {
  it("names the binary in a header beside the host's, and turns nothing on a release", () => {
    expect(activitiesConfigFor('v1', host)).toEqual({ ...host, headers: { 'x-team': 'ops', [BINARY_HEADER]: 'v1' } });
  });

  it('turns the controls of a binary broken in its activities', () => {
    expect(activitiesConfigFor('digest-in-units', host)).toMatchObject({
      digestWindowUnit: 'utf16-units',
      headers: { [BINARY_HEADER]: 'digest-in-units' },
    });
    expect(activitiesConfigFor('compaction-sees-screenshots', host)).toMatchObject({ compactionScreenshots: 'sent' });
    expect(activitiesConfigFor('compaction-on-agent-model', host)).toMatchObject({ compactionModelRole: 'agent' });
    expect(activitiesConfigFor('card-in-units', host)).toMatchObject({ cardSizeUnit: 'utf16-units' });
  });
});
