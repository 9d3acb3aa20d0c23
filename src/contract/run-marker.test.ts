import { describe, expect, it } from 'vitest';
import { extractIdentifiers } from './identifiers.ts';
import { blankRunMarkers, readRunMarker, runMarker } from './run-marker.ts';

describe('the run marker', () => {
  it('names the run in a text and is read back from anywhere in it', () => {
    expect(runMarker('smoke-run-0007')).toBe('[longrun-run:smoke-run-0007]');
    expect(readRunMarker(`Fix PROJ-12, please.\n${runMarker('smoke-run-0007')} thanks`)).toBe('smoke-run-0007');
    expect(readRunMarker('Fix PROJ-12, please.')).toBeNull();
    expect(readRunMarker('[longrun-run:] [longrun-run:a b]')).toBeNull();
  });

  it('refuses a run id it could not be read back as', () => {
    expect(() => runMarker('run 7')).toThrow('runId: "run 7" cannot be marked (no whitespace or "]")');
    expect(() => runMarker('run]7')).toThrow(/^runId: /);
  });

  it('is blanked out, positions kept, so that it adds no identifier a card must carry', () => {
    const text = `PROJ-12 in src/a.ts ${runMarker('soak-run-0042')}`;
    expect(blankRunMarkers(text)).toHaveLength(text.length);
    expect(extractIdentifiers(text)).toEqual(['PROJ-12', 'src/a.ts']);
  });
});
