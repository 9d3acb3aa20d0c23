/**
 * Text from histories and scenario files may hold anything. A control character printed as it is
 * drives the terminal (ESC retitles or clears it, CR overwrites a line with a fake verdict) and
 * breaks a file's format; shown as `\uXXXX` it is seen and does nothing. Every output (terminal,
 * XML, HTML) spells a hidden code unit the same way.
 */

function visibleCode(code: number): string {
  return `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Replaces each code unit `hidden` picks, and each lone surrogate, by `\uXXXX`; a whole surrogate pair stays. */
export function showCodeUnits(text: string, hidden: (code: number) => boolean): string {
  let out = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let bad = hidden(code);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      bad = true;
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      bad = true;
    }
    if (bad) {
      out += text.slice(start, i) + visibleCode(code);
      start = i + 1;
    }
  }
  return start === 0 ? text : out + text.slice(start);
}

/**
 * What a terminal acts on or lays out other than as text: C0 (tab and newline too: a line of
 * output stays one line), DEL, C1 (0x9B is a CSI on its own), the line and paragraph separators,
 * and the bidirectional embeddings, overrides and isolates (they reorder what is shown).
 */
function isTerminalControl(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/** A string from a history or a scenario file, safe to print on one line of a terminal. */
export function terminalText(text: string): string {
  return showCodeUnits(text, isTerminalControl);
}
