import { describe, expect, it } from 'vitest';
import { isRefcode, isReferralStartParam, refcodeFrom } from './refcodes.ts';

describe('referral start parameter (§5)', () => {
  it('must be exactly 6 characters and differ from the own refcode', () => {
    expect(isReferralStartParam('aB3dE6', 'zzzzzz')).toBe(true);
    expect(isReferralStartParam('aB3dE6', 'aB3dE6')).toBe(false);
    expect(isReferralStartParam('aB3dE', 'zzzzzz')).toBe(false);
    expect(isReferralStartParam('aB3dE67', 'zzzzzz')).toBe(false);
    expect(isReferralStartParam(undefined, 'zzzzzz')).toBe(false);
  });

  it('makes 6-character refcodes from random integers', () => {
    const code = refcodeFrom([0, 25, 26, 51, 52, 61 + 62]);
    expect(code).toBe('AZaz09');
    expect(isRefcode(code)).toBe(true);
    expect(isRefcode('abc-12')).toBe(false);
  });
});
