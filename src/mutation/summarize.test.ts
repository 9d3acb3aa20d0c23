import { describe, expect, it } from 'vitest';
import { summarize } from './summarize.ts';

const at = (line: number) => ({ start: { line, column: 3 } });

describe('summarize', () => {
  it('scores killed and timed-out over valid mutants and lists the survivors with their line', () => {
    const summary = summarize({
      files: {
        'a.ts': {
          source: 'const x = 1;\nif (x > 0) go();\n',
          mutants: [
            { id: '1', mutatorName: 'EqualityOperator', replacement: 'x >= 0', status: 'Survived', location: at(2) },
            { id: '2', mutatorName: 'ConditionalExpression', replacement: 'false', status: 'Killed', location: at(2) },
            { id: '3', mutatorName: 'BlockStatement', replacement: '{}', status: 'Timeout', location: at(2) },
            { id: '4', mutatorName: 'NumberLiteral', replacement: '0', status: 'CompileError', location: at(1) },
          ],
        },
      },
    });
    expect(summary.score).toBe('2/3 (66.7%)');
    expect(summary.survivors).toEqual(['a.ts:2:3 EqualityOperator (Survived): `if (x > 0) go();` -> `x >= 0`']);
  });
});
