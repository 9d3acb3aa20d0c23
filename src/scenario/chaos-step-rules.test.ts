import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chaosStepProblems, chaosTopologyProblems } from './chaos-step-rules.ts';
import { loadScenarioFile } from './index.ts';

describe('chaosStepProblems', () => {
  it('accepts each action with one trigger and its own fields', () => {
    expect(chaosStepProblems({ action: 'kill-worker', atTurn: 5, part: 'both', to: 'v1' })).toEqual([]);
    expect(chaosStepProblems({ action: 'upgrade-worker', after: '3s', to: 'v1', binary: 'v0', overlap: '1s' })).toEqual([]);
    expect(chaosStepProblems({ action: 'restart-server', probability: 0.1, times: 2, downFor: '2s' })).toEqual([]);
    expect(
      chaosStepProblems({ action: 'network', atTurn: 2, link: 'worker-temporal', fault: 'latency', latencyMs: 100, for: '1s' }),
    ).toEqual([]);
    expect(chaosStepProblems({ action: 'network', atTurn: 2, link: 'activities-model', fault: 'down', for: '1s' })).toEqual([]);
    expect(chaosStepProblems({ action: 'force-replay' })).toEqual([]);
    expect(chaosStepProblems({ action: 'upgrade-worker', atTurn: 5, to: 'v1', versioning: 'pinned' })).toEqual([]);
    expect(chaosStepProblems({ action: 'delete-stored', atTurn: 16, objects: 3 })).toEqual([]);
    expect(chaosStepProblems({ action: 'network', after: '2s', link: 'workers-store', fault: 'down', for: '5s' })).toEqual([]);
  });

  it('refuses objects on another action, and a delete-stored with no trigger', () => {
    expect(chaosStepProblems({ action: 'kill-worker', atTurn: 5, objects: 3 })).toEqual([
      { path: ['objects'], message: 'objects does not apply to kill-worker' },
    ]);
    expect(chaosStepProblems({ action: 'delete-stored' })[0]?.path).toEqual([]);
  });

  it('refuses versioning where it does not apply, and an overlap beside it', () => {
    expect(chaosStepProblems({ action: 'kill-worker', atTurn: 5, versioning: 'pinned' })).toEqual([
      { path: ['versioning'], message: 'versioning does not apply to kill-worker' },
    ]);
    expect(chaosStepProblems({ action: 'upgrade-worker', atTurn: 5, to: 'v1', versioning: 'pinned', overlap: '1s' })).toEqual([
      { path: ['overlap'], message: 'a versioned upgrade keeps the old workers until their pinned runs are done: it takes no overlap' },
    ]);
  });

  it('names the field of each mistake', () => {
    expect(chaosStepProblems({ action: 'kill-worker' })).toEqual([
      { path: [], message: 'kill-worker needs a trigger: after (a duration), atTurn (a turn) or probability (per turn)' },
    ]);
    expect(chaosStepProblems({ action: 'kill-worker', after: '1s', atTurn: 3 })).toEqual([
      { path: ['atTurn'], message: 'one trigger per step: after and atTurn are both set' },
    ]);
    expect(chaosStepProblems({ action: 'force-replay', atTurn: 3 })).toEqual([
      { path: ['atTurn'], message: 'force-replay holds for the whole scenario: it takes no after, atTurn or probability' },
    ]);
    expect(chaosStepProblems({ action: 'kill-worker', atTurn: 3, times: 2 })).toEqual([
      { path: ['times'], message: 'times counts strikes of a probability trigger' },
    ]);
    expect(chaosStepProblems({ action: 'upgrade-worker', atTurn: 3 })).toEqual([{ path: ['to'], message: 'upgrade-worker needs to' }]);
    expect(chaosStepProblems({ action: 'restart-server', atTurn: 3, link: 'worker-temporal' })).toEqual([
      { path: ['link'], message: 'link does not apply to restart-server' },
    ]);
    expect(
      chaosStepProblems({ action: 'network', atTurn: 3, link: 'worker-temporal', fault: 'bandwidth', for: '1s', latencyMs: 5 }),
    ).toEqual([
      { path: ['rateKBps'], message: 'a bandwidth fault needs rateKBps' },
      { path: ['latencyMs'], message: 'latencyMs does not apply to a bandwidth fault' },
    ]);
    expect(chaosStepProblems({ action: 'network', atTurn: 3, link: 'worker-temporal', fault: 'down', for: '1s', toxicity: 0.5 })).toEqual([
      { path: ['toxicity'], message: 'toxicity does not apply to a down fault' },
    ]);
  });

  it('reach the scenario file as one line naming the step and its field', () => {
    const file = join(tmpdir(), `longrun-chaos-${process.pid}.yaml`);
    writeFileSync(
      file,
      [
        'name: bad-chaos',
        'seed: 1',
        'chaos:',
        '  - action: network',
        '    atTurn: 2',
        '    link: worker-temporal',
        '    fault: latency',
        '    for: 2s',
        'expect:',
        '  - { on: v1, hold: all }',
        '',
      ].join('\n'),
    );
    expect(() => loadScenarioFile(file)).toThrow(`${file}:4:5: chaos[0].latencyMs: a latency fault needs latencyMs`);
  });
});

describe('chaos steps and the server topology', () => {
  const base = ['name: topology', 'seed: 1', 'expect:', '  - { on: v1, hold: all }'];
  const load = (lines: string[]) => {
    const file = join(tmpdir(), `longrun-topology-${process.pid}.yaml`);
    writeFileSync(file, [...base, ...lines, ''].join('\n'));
    return () => loadScenarioFile(file);
  };

  it('take restart-service on server.topology services only, and restart-server on a single process only', () => {
    const restartService = { action: 'restart-service', service: 'history', atTurn: 3 };
    expect(chaosTopologyProblems([restartService], 'services')).toEqual([]);
    expect(chaosTopologyProblems([{ action: 'restart-server', atTurn: 3 }], 'single')).toEqual([]);
    expect(chaosTopologyProblems([{ action: 'kill-worker' }, restartService], 'single')).toEqual([
      {
        path: ['chaos', 1, 'action'],
        message: 'restart-service kills one service of server.topology: services (this scenario runs a single process)',
      },
    ]);
    expect(chaosTopologyProblems([{ action: 'restart-server', atTurn: 3 }], 'services')).toEqual([
      {
        path: ['chaos', 0, 'action'],
        message: 'restart-server restarts the single-process server; with server.topology: services, use restart-service',
      },
    ]);
    expect(chaosStepProblems({ action: 'restart-service', atTurn: 3 })).toEqual([
      { path: ['service'], message: 'restart-service needs service' },
    ]);
  });

  it('reach the scenario file as one line naming the field', () => {
    expect(load(['chaos:', '  - { action: restart-service, service: history, atTurn: 3 }'])).toThrow(
      /:6:\d+: chaos\[0\]\.action: restart-service kills one service of server\.topology: services/,
    );
    expect(load(['server:', '  topology: services'])).toThrow(
      /server\.topology: services share one store: set server\.persistence to postgres/,
    );
    const good = load([
      'server:',
      '  persistence: postgres',
      '  topology: services',
      'chaos:',
      '  - { action: restart-service, service: matching, atTurn: 3 }',
    ])();
    expect(good.server.topology).toBe('services');
    expect(load([])().server.topology).toBe('single');
  });
});
