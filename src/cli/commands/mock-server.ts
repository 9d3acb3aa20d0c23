/**
 * `longrun mock-server`: the model API and the sandbox API as a standalone HTTP server on
 * loopback, for a worker in another process or language (the production kernel is Go).
 */
import { startMockServer } from '../../../mocks/index.ts';
import { resolveScenario } from '../../scenario/index.ts';
import type { Command } from '../command.ts';
import { parseCommandArgs } from '../parse-args.ts';
import { UsageError } from '../usage-error.ts';

export const mockServerCommand: Command = {
  usage: 'mock-server [--port N] [--host H] [--scenario S]',
  summary: 'serve the mock model and sandbox over HTTP (127.0.0.1 by default) until stopped',
  help: `Options:
  --port N        port (default: a free one, printed)
  --host H        address to listen on (default 127.0.0.1; a container needs 0.0.0.0)
  --scenario S    answer runs with this scenario's seed, shape and faults (default: smoke)`,
  async run(args) {
    const { values } = parseCommandArgs(
      args,
      { port: { type: 'string' }, host: { type: 'string' }, scenario: { type: 'string' } },
      { min: 0, max: 0, names: '' },
    );
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port ${values.port}: want a port number`);
    const { scenario } = resolveScenario(values.scenario ?? 'smoke');
    const server = await startMockServer({
      port,
      host: values.host ?? '127.0.0.1',
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
    return 0;
  },
};
