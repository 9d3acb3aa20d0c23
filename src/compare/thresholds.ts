/**
 * How far each figure may regress: the defaults (src/scenario/compare-schema.ts), then the
 * scenario's `compare.maxRegression`, then `--max-regression key=limit,...`, key by key.
 */
import { closestName } from '../scenario/closest-name.ts';
import {
  COMPARE_FIGURES,
  COMPARE_KEYS,
  type CompareKey,
  type CompareSettings,
  parseThreshold,
  type Threshold,
} from '../scenario/compare-schema.ts';

export type Thresholds = Record<CompareKey, Threshold>;

/** Where a figure's limit was set: its default, the scenario's `compare.maxRegression`, or `--max-regression`. */
export type LimitSource = 'default' | 'scenario' | 'flag';

export interface Limits {
  thresholds: Thresholds;
  from: Record<CompareKey, LimitSource>;
}

export function defaultThresholds(): Thresholds {
  return Object.fromEntries(COMPARE_KEYS.map((key) => [key, parseThreshold(COMPARE_FIGURES[key].default) as Threshold])) as Thresholds;
}

/** The defaults, then the scenario's limits, then the flag's: the last that sets a key wins. */
export function mergeThresholds(scenario: Partial<Thresholds>, flag: Partial<Thresholds>): Limits {
  const thresholds = defaultThresholds();
  const from = Object.fromEntries(COMPARE_KEYS.map((key) => [key, 'default'])) as Record<CompareKey, LimitSource>;
  for (const [source, given] of [
    ['scenario', scenario],
    ['flag', flag],
  ] as const) {
    for (const key of COMPARE_KEYS) {
      const threshold = given[key];
      if (threshold === undefined) continue;
      thresholds[key] = threshold;
      from[key] = source;
    }
  }
  return { thresholds, from };
}

/** A scenario's `compare.maxRegression`, already checked by its schema. */
export function scenarioThresholds(settings: CompareSettings | undefined): Partial<Thresholds> {
  const out: Partial<Thresholds> = {};
  for (const key of COMPARE_KEYS) {
    const raw = settings?.maxRegression[key];
    const threshold = raw === undefined ? undefined : parseThreshold(raw);
    if (threshold !== undefined) out[key] = threshold;
  }
  return out;
}

/** `p99=20%,violations=0,worker-rss-growth=off`; throws a one-line error naming the bad part. */
export function parseThresholdList(text: string): Partial<Thresholds> {
  const out: Partial<Thresholds> = {};
  for (const part of text.split(',').map((p) => p.trim())) {
    if (part === '') continue;
    const [key = '', raw, ...rest] = part.split('=');
    if (raw === undefined || rest.length > 0) throw new Error(`"${part}": want KEY=LIMIT`);
    if (!(COMPARE_KEYS as string[]).includes(key)) {
      const guess = closestName(key, COMPARE_KEYS);
      throw new Error(`"${key}" is no figure${guess ? ` (did you mean ${guess}?)` : ''}: one of ${COMPARE_KEYS.join(', ')}`);
    }
    const threshold = parseThreshold(raw);
    const unit = COMPARE_FIGURES[key as CompareKey].unit;
    if (!threshold) throw new Error(`${key}=${raw}: want a percentage of the baseline (10%), an amount in ${unit}, or off`);
    out[key as CompareKey] = threshold;
  }
  return out;
}

/** As written: 10%, 50 MiB/h, 0, off. */
export function thresholdText(key: CompareKey, threshold: Threshold): string {
  if (threshold === 'off') return 'off';
  if ('percent' in threshold) return `${threshold.percent}%`;
  const { unit } = COMPARE_FIGURES[key];
  return threshold.amount === 0 || ['runs', 'turns', 'violations', 'x'].includes(unit)
    ? String(threshold.amount)
    : `${threshold.amount} ${unit}`;
}
