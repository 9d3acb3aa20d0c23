import { describe, expect, it } from 'vitest';
import { HISTORY_LIMIT_REASONS } from '../../contract/history-limits.ts';
import { AgentRunHistory } from '../testing/index.ts';
import { profileRun } from './run-profile.ts';
import { buildRunView } from './run-view.ts';

const screenshot = [
  { type: 'text' as const, text: 'Screenshot of the page.' },
  { type: 'image_url' as const, image_url: { url: `data:image/png;base64,${'A'.repeat(4000)}` } },
];

describe('profileRun', () => {
  it('reads each turn: its text, its calls by tool with their output sizes, a screenshot apart', () => {
    const run = new AgentRunHistory({ systemPrompt: 'Системный промпт.' }).turn({ tools: [3000, 500] }).turn({ tools: [screenshot] });
    const profile = profileRun(buildRunView(run.loaded()));
    expect(profile).toMatchObject({
      runId: 'run-0001',
      workflowType: 'agentRun',
      systemPromptBytes: Buffer.byteLength('Системный промпт.'),
      maxTurns: 500,
      break: null,
    });
    expect(profile.turns).toEqual([
      { turn: 1, textBytes: 0, calls: [expect.objectContaining({ tool: 'shell' }), expect.objectContaining({ tool: 'shell' })] },
      { turn: 2, textBytes: 0, calls: [{ tool: 'shell', textBytes: 23, imageBytes: 3000 }] },
    ]);
    // The builder's outputs are about the size asked for; as JSON, each with its quotes and escapes.
    expect(profile.turns[0]?.calls.map((c) => Math.round(c.textBytes / 100))).toEqual([30, 5]);
    for (const call of profile.turns[0]?.calls ?? []) expect(call.jsonBytes).toBeGreaterThanOrEqual(call.textBytes + 2);
    expect(profile.turns[1]?.calls[0]?.jsonBytes).toBeUndefined();
  });

  it('names the turn a PAYLOADS_TOO_LARGE broke: the one after the last answered', () => {
    const run = new AgentRunHistory().turns(3);
    run.history.workflowTask();
    run.history.workflowTaskFailed(
      'PAYLOADS_TOO_LARGE',
      '[TMPRL1103] Attempted to upload payloads with size that exceeded the error limit.',
    );
    expect(profileRun(buildRunView(run.loaded())).break).toEqual({ incident: 'tmprl1103', turn: 4 });
  });

  it('names the turn a history-size termination broke', () => {
    const run = new AgentRunHistory().turns(5);
    run.history.terminated(HISTORY_LIMIT_REASONS['history-size'], 'history-service');
    expect(profileRun(buildRunView(run.loaded())).break).toEqual({ incident: 'history-size', turn: 6 });
  });
});
