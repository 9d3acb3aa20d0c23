/** Numbers as people read them in the reports. Deterministic: no locale, no clock. */

const SI_UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;
const IEC_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** A count with thousands separators: 1,200,000. */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const sign = n < 0 ? '-' : '';
  const [whole = '0', fraction] = Math.abs(n).toString().split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? sign + grouped : `${sign + grouped}.${fraction}`;
}

function significant(value: number): string {
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  const fixed = value.toFixed(digits);
  return digits === 0 ? fixed : fixed.replace(/\.?0+$/, '');
}

/**
 * Bytes in the unit that states them exactly when one does (2 MiB, 128 MiB, 1.2 MB), else in
 * SI units with three significant digits.
 */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const sign = n < 0 ? '-' : '';
  const bytes = Math.abs(n);
  if (bytes < 1000) return `${sign}${bytes} B`;
  for (let power = IEC_UNITS.length - 1; power >= 1; power--) {
    const unit = 1024 ** power;
    if (bytes % unit === 0 && bytes / unit < 1024) return `${sign}${bytes / unit} ${IEC_UNITS[power]}`;
  }
  let power = Math.min(Math.floor(Math.log10(bytes) / 3), SI_UNITS.length - 1);
  // 999,999 rounds to 1000 kB: say 1 MB.
  if (Number(significant(bytes / 1000 ** power)) >= 1000 && power < SI_UNITS.length - 1) power++;
  return `${sign}${significant(bytes / 1000 ** power)} ${SI_UNITS[power]}`;
}

/** A duration: 850 ms, 12.3 s, 4 min 05 s, 2 h 03 min. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms < 0) return `-${formatDuration(-ms)}`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${significant(ms / 1000)} s`;
  const totalSeconds = Math.round(ms / 1000);
  if (totalSeconds < 3600) {
    return `${Math.floor(totalSeconds / 60)} min ${String(totalSeconds % 60).padStart(2, '0')} s`;
  }
  const totalMinutes = Math.round(totalSeconds / 60);
  return `${Math.floor(totalMinutes / 60)} h ${String(totalMinutes % 60).padStart(2, '0')} min`;
}

/** "1 run", "2 runs". */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : pluralForm}`;
}
