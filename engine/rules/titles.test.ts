import { describe, expect, it } from 'vitest';
import { titleFor } from './titles.ts';

describe('title tiers (§2)', () => {
  it('comes from the mean of teleAge and twAge, "up to" inclusive', () => {
    expect(titleFor(730, 0).name).toBe('Cash Enthusiast');
    expect(titleFor(731, 0).name).toBe('Wealth Builder');
    expect(titleFor(1_095, 1_095).name).toBe('Wealth Builder');
    expect(titleFor(1_825, 1_826).name).toBe('Fortune Master');
    expect(titleFor(3_650, 3_650).name).toBe('Fortune Master');
    expect(titleFor(3_651, 3_651).name).toBe('Rich Legend');
  });
});
