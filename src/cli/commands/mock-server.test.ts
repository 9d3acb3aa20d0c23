import { describe, expect, it } from 'vitest';
import { mockServerCommand } from './mock-server.ts';

describe('mock-server parses its flags', () => {
  it('defaults to a free port on loopback with the smoke scenario', () => {
    expect(mockServerCommand.parse([])).toEqual({
      values: { port: 0, host: '127.0.0.1', scenario: 'smoke', 'tool-map': undefined, 'max-body-bytes': 64 * 1024 * 1024 },
      positionals: [],
    });
    expect(mockServerCommand.parse(['--port', '8080', '--host', '0.0.0.0', '--scenario', 'tmprl1103']).values).toEqual({
      port: 8080,
      host: '0.0.0.0',
      scenario: 'tmprl1103',
      'tool-map': undefined,
      'max-body-bytes': 64 * 1024 * 1024,
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
});
