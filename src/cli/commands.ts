/**
 * The registry of `longrun` commands: one module each, imported only when that command runs or
 * shows its help, so that `longrun --help` loads none of them.
 */
import type { Command } from './command.ts';
import { COMMAND_LINES } from './command-lines.ts';

export interface CommandEntry {
  usage: string;
  summary: string;
  load(): Promise<Command>;
}

export const COMMANDS: Record<string, CommandEntry> = {
  run: { ...COMMAND_LINES.run, load: async () => (await import('./commands/run.ts')).runCommand },
  soak: { ...COMMAND_LINES.soak, load: async () => (await import('./commands/run.ts')).soakCommand },
  repro: { ...COMMAND_LINES.repro, load: async () => (await import('./commands/run.ts')).reproCommand },
  check: { ...COMMAND_LINES.check, load: async () => (await import('./commands/check.ts')).checkCommand },
  forecast: { ...COMMAND_LINES.forecast, load: async () => (await import('./commands/forecast.ts')).forecastCommand },
  compare: { ...COMMAND_LINES.compare, load: async () => (await import('./commands/compare.ts')).compareCommand },
  arms: { ...COMMAND_LINES.arms, load: async () => (await import('./commands/arms.ts')).armsCommand },
  replay: { ...COMMAND_LINES.replay, load: async () => (await import('./commands/replay.ts')).replayCommand },
  mutants: { ...COMMAND_LINES.mutants, load: async () => (await import('./commands/mutants.ts')).mutantsCommand },
  scenario: { ...COMMAND_LINES.scenario, load: async () => (await import('./commands/scenario.ts')).scenarioCommand },
  shrink: { ...COMMAND_LINES.shrink, load: async () => (await import('./commands/shrink.ts')).shrinkCommand },
  'mock-server': { ...COMMAND_LINES['mock-server'], load: async () => (await import('./commands/mock-server.ts')).mockServerCommand },
  worker: { ...COMMAND_LINES.worker, load: async () => (await import('./commands/worker.ts')).workerCommand },
  'harness-worker': {
    ...COMMAND_LINES['harness-worker'],
    load: async () => (await import('./commands/harness-worker.ts')).harnessWorkerCommand,
  },
};
