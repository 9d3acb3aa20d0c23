/** Plain-text tables for the terminal: pure, so the tests check them without running anything. */

export interface Table {
  title: string;
  headers: string[];
  rows: string[][];
  /** Lines printed under the table. */
  notes?: string[];
}

/** Columns padded to their widest cell; numbers (cells starting with a digit, sign or ×) right-aligned. */
export function formatTable(table: Table): string {
  const width = table.headers.length;
  for (const [i, row] of table.rows.entries()) {
    if (row.length !== width) throw new Error(`${table.title}: rows[${i}] has ${row.length} cells, the headers ${width}`);
  }
  const widths = table.headers.map((h, c) => Math.max(h.length, ...table.rows.map((r) => (r[c] as string).length)));
  const numeric = table.headers.map((_, c) => table.rows.length > 0 && table.rows.every((r) => /^[-+×]?\d/.test(r[c] as string)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, c) => (numeric[c] ? cell.padStart(widths[c] as number) : cell.padEnd(widths[c] as number)))
      .join('  ')
      .trimEnd();
  return [
    table.title,
    line(table.headers),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...table.rows.map(line),
    ...(table.notes ?? []).map((note) => `  ${note}`),
  ].join('\n');
}

/** 1234.56 -> "1,234.6": grouped thousands, a fixed number of decimals. */
export function formatNumber(value: number, decimals = 1): string {
  if (!Number.isFinite(value)) return String(value);
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}
