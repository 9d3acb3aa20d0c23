/** The registry of `longrun` commands: one module each. */
import type { Command } from './command.ts';
import { checkCommand } from './commands/check.ts';
import { forecastCommand } from './commands/forecast.ts';
import { mockServerCommand } from './commands/mock-server.ts';
import { mutantsCommand } from './commands/mutants.ts';
import { replayCommand } from './commands/replay.ts';
import { reproCommand, runCommand, soakCommand } from './commands/run.ts';
import { scenarioCommand } from './commands/scenario.ts';
import { workerCommand } from './commands/worker.ts';

export const COMMANDS: Record<string, Command> = {
  run: runCommand,
  soak: soakCommand,
  repro: reproCommand,
  check: checkCommand,
  forecast: forecastCommand,
  replay: replayCommand,
  mutants: mutantsCommand,
  scenario: scenarioCommand,
  'mock-server': mockServerCommand,
  worker: workerCommand,
};
