import { describe, expect, it } from 'vitest';
import { summarize } from './summarize.ts';

const at = (line: number, column = 3, endColumn = 11) => ({ start: { line, column }, end: { line, column: endColumn } });

describe('summarize', () => {
  it('scores killed and timed-out over valid mutants and lists the survivors with their id and the code they replace', () => {
    const summary = summarize({
      files: {
        'a.ts': {
          source: 'const x = 1;\nif (x > 0 && y) go();\n',
          mutants: [
            { id: '1', mutatorName: 'EqualityOperator', replacement: 'x >= 0', status: 'Survived', location: at(2, 5, 10) },
            { id: '2', mutatorName: 'ConditionalExpression', replacement: 'false', status: 'Killed', location: at(2, 5, 15) },
            { id: '3', mutatorName: 'BlockStatement', replacement: '{}', status: 'Timeout', location: at(2) },
            { id: '4', mutatorName: 'NumberLiteral', replacement: '0', status: 'CompileError', location: at(1) },
          ],
        },
      },
    });
    expect(summary.score).toBe('2/3 (66.7%)');
    expect(summary.survivors).toEqual(['a.ts:2:5 #1 EqualityOperator (Survived): `x > 0` -> `x >= 0`']);
  });

  it('tells apart two mutants of one line with the same replacement, and spans lines', () => {
    const source = 'return a >= b && c();\nf(x,\n  y);\n';
    const summary = summarize({
      files: {
        'b.ts': {
          source,
          mutants: [
            { id: '0', mutatorName: 'ConditionalExpression', replacement: 'true', status: 'Survived', location: at(1, 8, 21) },
            { id: '3', mutatorName: 'ConditionalExpression', replacement: 'true', status: 'Survived', location: at(1, 8, 14) },
            {
              id: '5',
              mutatorName: 'ArrayDeclaration',
              replacement: 'f()',
              status: 'NoCoverage',
              location: { start: { line: 2, column: 1 }, end: { line: 3, column: 5 } },
            },
          ],
        },
      },
    });
    expect(summary.survivors).toEqual([
      'b.ts:1:8 #0 ConditionalExpression (Survived): `a >= b && c()` -> `true`',
      'b.ts:1:8 #3 ConditionalExpression (Survived): `a >= b` -> `true`',
      'b.ts:2:1 #5 ArrayDeclaration (NoCoverage): `f(x, y)` -> `f()`',
    ]);
  });
});
