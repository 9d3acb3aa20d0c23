/**
 * The mocks as one provider: model and sandbox handlers over the same plans, fault profile and
 * recorder. Runs are planned from (seed, runId, shape); a run id ending in a number (run-0042)
 * takes that number as its index, which stratifies run sizes across a scenario (see planRun).
 */
import type { RequestHandler } from 'msw';
import type { FaultProfile } from './faults/fault-profile.ts';
import { createModelHandlers, DEFAULT_MODEL_BASE_URL } from './handlers/model-handlers.ts';
import { createSandboxHandlers, DEFAULT_SANDBOX_BASE_URL } from './handlers/sandbox-handlers.ts';
import type { ToolMap } from './handlers/tool-map.ts';
import { MockRecorder } from './recorder/mock-recorder.ts';
import { planRun, type RunPlan } from './synthetic/plan-run.ts';
import type { RunShapeInput } from './synthetic/run-shape.ts';

export interface MockProviderOptions {
  seed: number;
  shape?: RunShapeInput;
  /** Replaces planning from (seed, shape): the runner decides each run's plan. */
  plans?: (runId: string) => RunPlan;
  faults?: FaultProfile;
  modelBaseUrl?: string;
  sandboxBaseUrl?: string;
  /**
   * The compaction model's names: a request with no longrun_purpose that names one is a
   * compaction, and a compaction request must name one (none given: any model).
   */
  compactionModels?: readonly string[];
  cardMaxBytes?: number;
  /**
   * The agent's tools whose backends forward to the sandbox, e.g. `{ get_page: 'screenshot' }`:
   * a planned call to that sandbox tool is played as a call to the agent's tool, with the
   * planned arguments (see handlers/play-turn.ts).
   */
  toolMap?: ToolMap;
  /** The user messages each run's conversation holds (synthetic/conversation.ts); default 1. */
  conversationMessages?: number;
}

export interface MockProvider {
  handlers: RequestHandler[];
  recorder: MockRecorder;
  planFor(runId: string): RunPlan;
  modelBaseUrl: string;
  sandboxBaseUrl: string;
}

/** Plans kept in memory; a plan is cheap to rebuild, so only recent runs are kept. */
const PLAN_CACHE_SIZE = 1024;

export function createMockProvider(options: MockProviderOptions): MockProvider {
  const recorder = new MockRecorder();
  const cache = new Map<string, RunPlan>();
  const plan =
    options.plans ??
    ((runId: string) =>
      planRun({
        seed: options.seed,
        runId,
        shape: options.shape,
        index: trailingIndex(runId),
      }));
  // Fail on a bad seed or shape now rather than on the first request.
  if (!options.plans) planRun({ seed: options.seed, runId: 'probe', shape: options.shape });
  const planFor = (runId: string): RunPlan => {
    let found = cache.get(runId);
    if (!found) {
      found = plan(runId);
      if (cache.size >= PLAN_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      cache.set(runId, found);
    }
    return found;
  };
  const modelBaseUrl = options.modelBaseUrl ?? DEFAULT_MODEL_BASE_URL;
  const sandboxBaseUrl = options.sandboxBaseUrl ?? DEFAULT_SANDBOX_BASE_URL;
  const handlers = [
    ...createModelHandlers({
      plans: planFor,
      modelBaseUrl,
      compactionModels: options.compactionModels,
      cardMaxBytes: options.cardMaxBytes,
      faults: options.faults,
      recorder,
      toolMap: options.toolMap,
      conversationMessages: options.conversationMessages,
    }),
    ...createSandboxHandlers({
      sandboxBaseUrl,
      faults: options.faults,
      recorder,
    }),
  ];
  return { handlers, recorder, planFor, modelBaseUrl, sandboxBaseUrl };
}

function trailingIndex(runId: string): number | undefined {
  const digits = /(\d+)$/.exec(runId)?.[1];
  return digits === undefined ? undefined : Number(digits);
}
