import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCompact, formatMoney, formatPlain, formatWallet, suffixForGroup } from './format.ts';
import { money, type Money } from './money.ts';

/** Reads a formatted amount back, to check that formatting keeps order. */
const parseFormatted = (text: string): Money => {
  const m = /^(-?)([\d,]+(?:\.\d+)?)(?:e(\d+)|([A-Za-z]*))$/.exec(text);
  if (!m) throw new Error(`unreadable: ${text}`);
  const value = money(m[2]!.replaceAll(',', ''));
  let scaled = value;
  if (m[3] !== undefined) scaled = value.times(money(10).pow(Number(m[3])));
  else if (m[4]) {
    let group = 0;
    while (suffixForGroup(group) !== m[4]) group++;
    scaled = value.times(money(1000).pow(group));
  }
  return m[1] ? scaled.negated() : scaled;
};

describe('money formatting (§9)', () => {
  it('uses thousands separators and 2 decimals up to 500,000', () => {
    expect(formatMoney('1234.5')).toBe('1,234.50');
    expect(formatMoney('500000')).toBe('500,000.00');
    expect(formatMoney('0.999')).toBe('0.99');
    expect(formatPlain('1234567.891', 0)).toBe('1,234,567');
  });

  // Above 500,000: K, M, B, T with one decimal, then aa, ab … zz, then scientific notation.
  it.each([
    ['500000.01', '500.0K'],
    ['2500000', '2.5M'],
    ['7890000000', '7.8B'],
    ['1230000000000', '1.2T'],
    ['-2500000', '-2.5M'],
    ['1e15', '1.0aa'],
    ['4.56e18', '4.5ab'],
    ['1e90', '1.0az'],
    ['1e93', '1.0ba'],
    ['3e2043', '3.0e2043'],
  ])('abbreviates %s as %s', (amount, shown) => {
    expect(formatMoney(amount)).toBe(shown);
  });

  it('keeps the wallet balance in full up to 999,999,999,999', () => {
    expect(formatWallet('999999999999')).toBe('999,999,999,999.00');
    expect(formatWallet('1000000000000')).toBe('1.0T');
  });

  it('writes compact stats with no decimals below 1,000', () => {
    expect(formatCompact('999')).toBe('999');
    expect(formatCompact('1500')).toBe('1.5K');
  });

  it('keeps order: a ≤ b formats to values read back as a′ ≤ b′', () => {
    const amount = fc
      .tuple(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 1_600 }))
      .map(([int, cents, shift]) => money(`${int}.${String(cents).padStart(2, '0')}`).times(money(10).pow(shift % 5 === 0 ? shift : 0)));
    fc.assert(
      fc.property(amount, amount, (x, y) => {
        const [a, b] = x.lte(y) ? [x, y] : [y, x];
        expect(parseFormatted(formatMoney(a)).lte(parseFormatted(formatMoney(b)))).toBe(true);
        expect(parseFormatted(formatWallet(a)).lte(parseFormatted(formatWallet(b)))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
