import { describe, expect, it } from 'vitest';
import { scenarioSchema } from '../scenario/index.ts';
import { planChaos } from './chaos-plan.ts';
import { startChaosSession } from './chaos-session.ts';

describe('chaos on External Storage', () => {
  it('refuses delete-stored and the workers-store link where no binary offloads, before anything starts', async () => {
    for (const step of [
      { action: 'delete-stored', atTurn: 3 },
      { action: 'network', atTurn: 3, link: 'workers-store', fault: 'down', for: '1s' },
    ]) {
      const scenario = scenarioSchema.parse({
        name: 'no-store',
        seed: 1,
        target: { binaries: ['v1'] },
        chaos: [step],
        expect: [{ on: 'v1', hold: 'all' }],
      });
      await expect(startChaosSession(scenario, planChaos(scenario), { queuePrefix: 'q' })).rejects.toThrow(
        'scenario no-store: delete-stored and network on workers-store act on External Storage, which only an offloading binary (v0-offload, v1-offload) uses',
      );
    }
  });
});
