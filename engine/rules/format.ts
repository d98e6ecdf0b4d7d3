import { economy } from './economy.ts';
import { money, Money, type MoneyInput } from './money.ts';

/**
 * §9 names K, M, B and T. Beyond T we continue with two-letter groups, aa (10^15), ab (10^18) …
 * zz (10^2040), the notation idle games use, and past that scientific notation (1.5e2043).
 */
const namedSuffixes = ['', 'K', 'M', 'B', 'T'] as const;
const letters = 'abcdefghijklmnopqrstuvwxyz';
const letterGroups = letters.length * letters.length;

/** The suffix for a power of 1000, or null past zz. */
export const suffixForGroup = (group: number): string | null => {
  if (group < namedSuffixes.length) return namedSuffixes[group]!;
  const index = group - namedSuffixes.length;
  if (index >= letterGroups) return null;
  return letters[Math.floor(index / letters.length)]! + letters[index % letters.length]!;
};

const withSeparators = (digits: string): string => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Thousands separators with a fixed number of decimals, truncated toward zero ("1,234.50"). */
export const formatPlain = (value: MoneyInput, decimals: number = economy.defaultDecimals): string => {
  const v = money(value);
  const fixed = v.abs().toFixed(decimals, Money.ROUND_DOWN);
  const [int = '0', frac] = fixed.split('.');
  const body = frac === undefined ? withSeparators(int) : `${withSeparators(int)}.${frac}`;
  return v.isNegative() && !/^[0.,]+$/.test(body) ? `-${body}` : body;
};

/** Compact form with one decimal, truncated toward zero: 512.3K, 1.0M, 4.2T, 7.7aa. */
export const formatCompact = (value: MoneyInput): string => {
  const v = money(value);
  const abs = v.abs();
  if (abs.lt(1_000)) return formatPlain(v, 0);
  const group = Math.floor(abs.e / 3);
  const mantissa = abs.div(new Money(10).pow(group * 3)).toFixed(economy.compactDecimals, Money.ROUND_DOWN);
  const suffix = suffixForGroup(group);
  const sign = v.isNegative() ? '-' : '';
  if (suffix !== null) return `${sign}${mantissa}${suffix}`;
  const scientific = abs.div(new Money(10).pow(abs.e)).toFixed(economy.compactDecimals, Money.ROUND_DOWN);
  return `${sign}${scientific}e${abs.e}`;
};

/** §9: amounts above 500,000 are abbreviated, others get separators and 2 decimals by default. */
export const formatMoney = (value: MoneyInput, decimals: number = economy.defaultDecimals): string => {
  const v = money(value);
  return v.abs().gt(economy.compactAboveDollars) ? formatCompact(v) : formatPlain(v, decimals);
};

/** §9: the wallet balance goes compact only above 999,999,999,999. */
export const formatWallet = (value: MoneyInput): string => {
  const v = money(value);
  return v.abs().gt(economy.walletCompactAboveDollars) ? formatCompact(v) : formatPlain(v);
};
