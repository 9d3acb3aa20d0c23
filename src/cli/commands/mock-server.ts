/**
 * `longrun mock-server`: the model API and the sandbox API as a standalone HTTP server on
 * loopback, for a worker in another process or language (the production kernel is Go).
 */
import {
  checkToolMap,
  DEFAULT_MAX_BODY_BYTES,
  type Peers,
  peerUrl,
  RECORDS_PATH,
  startMockServer,
  type ToolMap,
} from '../../../mocks/index.ts';
import { mockOptionsOf, resolveScenario } from '../../scenario/index.ts';
import { COMMAND_LINES } from '../command-lines.ts';
import { EXIT } from '../exit-code.ts';
import { defineCommand, valueFlag, wholeNumber } from '../flags.ts';
import { UsageError } from '../usage-error.ts';

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
  peers: valueFlag({
    value: 'URL,...',
    help: "the whole fleet's addresses as the replicas reach each other, the same list on each, its own included (with --self): each run's requests are answered by one replica, its owner, through whichever they reach. None by default: every request is answered here",
    parse: (raw) => orUndefined(() => raw.split(',').map((peer) => peerUrl(peer))),
    want: 'http://host:port addresses, comma-separated',
  }),
  self: valueFlag({
    value: 'URL',
    help: "this replica's address in --peers",
    parse: (raw) => orUndefined(() => peerUrl(raw)),
    want: 'an http://host:port address',
  }),
};

function orUndefined<T>(parse: () => T): T | undefined {
  try {
    return parse();
  } catch {
    return undefined;
  }
}

/** The fleet --peers and --self name, or none; a usage error when only one is given or --self is not in --peers. */
export function fleetOf(peers: readonly string[] | undefined, self: string | undefined): Peers | undefined {
  if (peers === undefined && self === undefined) return undefined;
  if (peers === undefined || self === undefined)
    throw new UsageError(`--${peers ? 'self' : 'peers'} is required with --${peers ? 'peers' : 'self'}`);
  if (!peers.includes(self)) throw new UsageError(`--self ${self}: not one of --peers (${peers.join(',')})`);
  return { self, all: peers };
}

/** `get_page=screenshot,run=shell`; undefined when it is not that. */
function toolMapOf(raw: string): ToolMap | undefined {
  const pairs = raw.split(',').map((pair) => pair.split('='));
  if (pairs.some((pair) => pair.length !== 2)) return undefined;
  return orUndefined(() => checkToolMap(Object.fromEntries(pairs)));
}

export const mockServerCommand = defineCommand({
  ...COMMAND_LINES['mock-server'],
  flags: FLAGS,
  positionals: { min: 0, max: 0, names: '' },
  async run({ values: { port, host, scenario: scenarioName, 'tool-map': toolMap, 'max-body-bytes': maxBodyBytes, peers, self } }) {
    const fleet = fleetOf(peers, self);
    const { scenario } = resolveScenario(scenarioName);
    // As the scenario's runs see it (its tools and conversation included), the flag's tool map over the scenario's.
    const server = await startMockServer({
      ...mockOptionsOf(scenario),
      port,
      host,
      maxBodyBytes,
      ...(toolMap ? { toolMap } : {}),
      ...(fleet ? { peers: fleet } : {}),
    });
    console.log(`longrun mock server (scenario ${scenario.name}) at ${server.url}`);
    if (fleet) console.log(`  fleet:       ${fleet.self}, one of ${fleet.all.length} (--peers): each run answered by its owner`);
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
