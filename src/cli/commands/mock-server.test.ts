import { describe, expect, it } from 'vitest';
import { fleetOf, mockServerCommand } from './mock-server.ts';

describe('mock-server parses its flags', () => {
  it('defaults to a free port on loopback with the smoke scenario', () => {
    expect(mockServerCommand.parse([])).toEqual({
      values: {
        port: 0,
        host: '127.0.0.1',
        scenario: 'smoke',
        'tool-map': undefined,
        'max-body-bytes': 64 * 1024 * 1024,
        peers: undefined,
        self: undefined,
      },
      positionals: [],
    });
    expect(mockServerCommand.parse(['--port', '8080', '--host', '0.0.0.0', '--scenario', 'tmprl1103']).values).toEqual({
      port: 8080,
      host: '0.0.0.0',
      scenario: 'tmprl1103',
      'tool-map': undefined,
      'max-body-bytes': 64 * 1024 * 1024,
      peers: undefined,
      self: undefined,
    });
  });

  it("takes the agent's tools mapped to sandbox tools, and refuses what is no such map", () => {
    expect(mockServerCommand.parse(['--tool-map', 'get_page=screenshot,run_cmd=shell']).values['tool-map']).toEqual({
      get_page: 'screenshot',
      run_cmd: 'shell',
    });
    for (const bad of ['get_page', 'get_page=browser', 'shell=shell', 'a=b=c']) {
      expect(() => mockServerCommand.parse(['--tool-map', bad])).toThrow(`--tool-map ${bad}: want NAME=TOOL pairs`);
    }
  });

  it('takes a cap on request bodies in bytes (64 MiB by default), never none', () => {
    expect(mockServerCommand.parse(['--max-body-bytes', '1048576']).values['max-body-bytes']).toBe(1_048_576);
    for (const bad of ['0', '-1', '1MiB']) {
      expect(() => mockServerCommand.parse([`--max-body-bytes=${bad}`])).toThrow(
        `--max-body-bytes ${bad}: want a positive whole number of bytes`,
      );
    }
  });

  it('refuses a port out of range or not a number, and any positional', () => {
    for (const bad of ['65536', '-1', 'http', '80.5']) {
      expect(() => mockServerCommand.parse([`--port=${bad}`])).toThrow(`--port ${bad}: want a port number`);
    }
    expect(() => mockServerCommand.parse(['smoke'])).toThrow('unexpected argument "smoke"');
  });

  it('takes a fleet as --peers and --self together, --self one of --peers, and refuses a malformed address naming the flag', () => {
    const { values } = mockServerCommand.parse([
      '--peers',
      'http://mock-0.mocks:8080,http://mock-1.mocks:8080/',
      '--self',
      'http://mock-1.mocks:8080',
    ]);
    expect(values.peers).toEqual(['http://mock-0.mocks:8080', 'http://mock-1.mocks:8080']);
    expect(fleetOf(values.peers, values.self)).toEqual({ self: 'http://mock-1.mocks:8080', all: values.peers });
    expect(fleetOf(undefined, undefined)).toBeUndefined();
    for (const bad of ['mock-0:8080', 'http://a:1,https://b:1', 'http://a:1/v1', 'http://a:1,']) {
      expect(() => mockServerCommand.parse(['--peers', bad])).toThrow(`--peers ${bad}: want http://host:port addresses, comma-separated`);
    }
    expect(() => mockServerCommand.parse(['--self', 'b:1'])).toThrow('--self b:1: want an http://host:port address');
    expect(() => fleetOf(['http://a:1'], undefined)).toThrow('--self is required with --peers');
    expect(() => fleetOf(undefined, 'http://a:1')).toThrow('--peers is required with --self');
    expect(() => fleetOf(['http://a:1', 'http://b:1'], 'http://c:1')).toThrow(
      '--self http://c:1: not one of --peers (http://a:1,http://b:1)',
    );
  });
});
