/**
 * `longrun mock-server`: the model API and the sandbox API as a standalone HTTP server on
 * loopback, for a worker in another process or language (the production kernel is Go).
 */
import { startMockServer } from '../../../mocks/index.ts';
import { resolveScenario } from '../../scenario/index.ts';
import { COMMAND_LINES } from '../command-lines.ts';
import { EXIT } from '../exit-code.ts';
import { defineCommand, valueFlag, wholeNumber } from '../flags.ts';

const FLAGS = {
  port: valueFlag({
    value: 'N',
    help: 'port',
    default: 0,
    shownDefault: 'a free one, printed',
    parse: wholeNumber(0, 65535),
    want: 'a port number',
  }),
  host: valueFlag({ value: 'H', help: 'address to listen on; a container needs 0.0.0.0', default: '127.0.0.1' }),
  scenario: valueFlag({ value: 'S', help: "answer runs with this scenario's seed, shape and faults", default: 'smoke' }),
};

export const mockServerCommand = defineCommand({
  ...COMMAND_LINES['mock-server'],
  flags: FLAGS,
  positionals: { min: 0, max: 0, names: '' },
  async run({ values: { port, host, scenario: scenarioName } }) {
    const { scenario } = resolveScenario(scenarioName);
    const server = await startMockServer({
      port,
      host,
      seed: scenario.seed,
      shape: scenario.shape,
      faults: scenario.faults,
    });
    console.log(`longrun mock server (scenario ${scenario.name}) at ${server.url}`);
    console.log(`  model API:   ${server.modelBaseUrl}/chat/completions`);
    console.log(`  sandbox API: ${server.sandboxBaseUrl}/tools/{name}`);
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await server.close();
    return EXIT.passed;
  },
});
