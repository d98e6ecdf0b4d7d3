import { describe, expect, it } from 'vitest';
import { inviteBonus, isRefcode, isReferralStartParam, isRoadmapActive, refcodeFrom, roadmapFor, titleFor, welcomeReward } from './profile.ts';

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

describe('roadmap highlight (§4)', () => {
  it('highlights a phase whose date is the current month and year', () => {
    expect(isRoadmapActive('September 2024', 2024, 8)).toBe(true);
    expect(isRoadmapActive('September 2024', 2025, 8)).toBe(false);
    expect(roadmapFor(2024, 8).filter((p) => p.isRoadmapActive).map((p) => p.phase)).toEqual([1, 2]);
  });

  it('never matches quarter dates', () => {
    for (let month = 0; month < 12; month++) {
      expect(roadmapFor(2025, month).filter((p) => p.date.includes('Quarter')).some((p) => p.isRoadmapActive)).toBe(false);
    }
  });
});

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

describe('rewards', () => {
  it('computes the welcome reward from ages and Premium', () => {
    expect(welcomeReward(1_000, 200, false)).toBe(1_200);
    expect(welcomeReward(1_000.9, 0, true)).toBe(1_500);
  });

  it('gives +3, or +49 for a Premium friend', () => {
    expect(inviteBonus(false)).toBe(3);
    expect(inviteBonus(true)).toBe(49);
  });
});
