import { describe, expect, it } from 'vitest';
import { countOf, formatAmount, formatNumber } from '../../src/admin/use-load.ts';

/** The console writes numbers as the mini-app does: grouped, amounts exact (docs/admin.md). */
describe('console number formatting', () => {
  it('groups amounts, with every decimal the ledger holds and at least two', () => {
    expect(formatAmount('9358.8')).toBe('9,358.80');
    expect(formatAmount('1234567')).toBe('1,234,567.00');
    expect(formatAmount('0.125')).toBe('0.125');
    expect(formatAmount('-2500.5')).toBe('-2,500.50');
  });

  it('groups counts and picks the noun by the plural rule', () => {
    expect(formatNumber(12345)).toBe('12,345');
    expect(countOf(1, 'open review', 'open reviews')).toBe('1 open review');
    expect(countOf(0, 'open review', 'open reviews')).toBe('0 open reviews');
    expect(countOf(2048, 'open review', 'open reviews')).toBe('2,048 open reviews');
  });
});
