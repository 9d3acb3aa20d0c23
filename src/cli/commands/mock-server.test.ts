import { describe, expect, it } from 'vitest';
import { mockServerCommand } from './mock-server.ts';

describe('mock-server parses its flags', () => {
  it('defaults to a free port on loopback with the smoke scenario', () => {
    expect(mockServerCommand.parse([])).toEqual({ values: { port: 0, host: '127.0.0.1', scenario: 'smoke' }, positionals: [] });
    expect(mockServerCommand.parse(['--port', '8080', '--host', '0.0.0.0', '--scenario', 'tmprl1103']).values).toEqual({
      port: 8080,
      host: '0.0.0.0',
      scenario: 'tmprl1103',
    });
  });

  it('refuses a port out of range or not a number, and any positional', () => {
    for (const bad of ['65536', '-1', 'http', '80.5']) {
      expect(() => mockServerCommand.parse([`--port=${bad}`])).toThrow(`--port ${bad}: want a port number`);
    }
    expect(() => mockServerCommand.parse(['smoke'])).toThrow('unexpected argument "smoke"');
  });
});
