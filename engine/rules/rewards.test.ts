import { describe, expect, it } from 'vitest';
import { inviteBonus, welcomeReward } from './rewards.ts';

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
