import { describe, expect, it } from 'vitest';
import { terminalControls } from '../../shared/testing/terminal-controls.ts';
import { EXIT } from '../exit-code.ts';
import { forecastCommand } from './forecast.ts';
import { printedOver, writeHostileHistory } from './testing/hostile-history.ts';

describe('forecast prints what a history holds, never its control characters', () => {
  it("shows a hostile history's run id and workflow type with their controls escaped", async () => {
    const { code, text } = await printedOver(writeHostileHistory, (dir) => forecastCommand.run([dir]));
    expect(code).toBe(EXIT.passed);
    expect(terminalControls(text)).toEqual([]);
    expect(text).toContain('(Order\\u001B]0;pwned\\u0007\\u001B[2J\\u000D\\u009B1Aall invariants PASS)');
  });
});
