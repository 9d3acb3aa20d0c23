/**
 * `longrun mock-server`: the model API and the sandbox API as a standalone HTTP server on
 * loopback, for a worker in another process or language (the production kernel is Go).
 */
import { checkToolMap, DEFAULT_MAX_BODY_BYTES, RECORDS_PATH, startMockServer, type ToolMap } from '../../../mocks/index.ts';
import { mockOptionsOf, resolveScenario } from '../../scenario/index.ts';
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
  'tool-map': valueFlag({
    value: 'NAME=TOOL,...',
    help: "the agent's tools whose backends forward to the sandbox (get_page=screenshot): the model calls them for that sandbox tool",
    parse: toolMapOf,
    want: 'NAME=TOOL pairs, comma-separated, TOOL one of screenshot, shell, read_file, list_files, diff',
  }),
  'max-body-bytes': valueFlag({
    value: 'N',
    help: "a request body past this is answered 413 as it arrives, in the provider's error shape (a Temporal payload is at most 2 MiB)",
    default: DEFAULT_MAX_BODY_BYTES,
    shownDefault: '64 MiB',
    parse: wholeNumber(1),
    want: 'a positive whole number of bytes',
  }),
};

/** `get_page=screenshot,run=shell`; undefined when it is not that. */
function toolMapOf(raw: string): ToolMap | undefined {
  const pairs = raw.split(',').map((pair) => pair.split('='));
  if (pairs.some((pair) => pair.length !== 2)) return undefined;
  try {
    return checkToolMap(Object.fromEntries(pairs));
  } catch {
    return undefined;
  }
}

export const mockServerCommand = defineCommand({
  ...COMMAND_LINES['mock-server'],
  flags: FLAGS,
  positionals: { min: 0, max: 0, names: '' },
  async run({ values: { port, host, scenario: scenarioName, 'tool-map': toolMap, 'max-body-bytes': maxBodyBytes } }) {
    const { scenario } = resolveScenario(scenarioName);
    // As the scenario's runs see it (its tools and conversation included), the flag's tool map over the scenario's.
    const server = await startMockServer({ ...mockOptionsOf(scenario), port, host, maxBodyBytes, ...(toolMap ? { toolMap } : {}) });
    console.log(`longrun mock server (scenario ${scenario.name}) at ${server.url}`);
    console.log(`  model API:   ${server.modelBaseUrl}/chat/completions`);
    console.log(`  sandbox API: ${server.sandboxBaseUrl}/tools/{name}`);
    console.log(`  records:     ${server.url}${RECORDS_PATH}?run=ID`);
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await server.close();
    return EXIT.passed;
  },
});
