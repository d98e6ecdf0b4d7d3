import { describe, expect, it } from 'vitest';
import { configSchemaOf, loadSettings } from '../core/config/config.ts';
import { emptyCadence } from './cadence.ts';
import { integritySettings } from './settings.ts';
import { integrityRulesOf, reasonSentence } from './rules.ts';
import { noGroup, reviewOf, stateOf, type PlayerFacts } from './score.ts';

const rules = integrityRulesOf(loadSettings(configSchemaOf(integritySettings), { NODE_ENV: 'test' }));

const facts = (over: Partial<PlayerFacts> = {}): PlayerFacts => ({
  cadence: emptyCadence(),
  deviceAccounts: 1,
  withoutApp: false,
  withApp: true,
  invites: null,
  invitedBy: null,
  group: noGroup,
  teleAgeDays: 100,
  xAgeDays: 0,
  premium: false,
  ...over,
});

describe('the review of a player', () => {
  it('has no reason and a score of 0 for a player who plays through the mini-app', () => {
    expect(reviewOf(facts(), rules)).toMatchObject({ reasons: [], score: 0, referralFarm: false });
  });

  it('reviews a script: regular windows and time at the cap', () => {
    const cadence = { ...emptyCadence(), windows: 10, regularWindows: 9, activeMs: 600_000, capMs: 590_000 };
    const r = reviewOf(facts({ cadence }), rules);
    expect(r.reasons).toEqual(['tapRhythm', 'tapAtCap']);
    expect(r.score).toBe(80);
    expect(stateOf(r.score, r.reasons, { decision: null, decidedReasons: [] }, rules.reviewScore)).toBe('review');
    expect(reasonSentence('tapAtCap', r.evidence)).toBe('Of 10 minutes spent tapping, 98% were at the human-rate cap.');
  });

  it('lets trust outweigh one reason, never the two strongest tapping reasons', () => {
    const cadence = { ...emptyCadence(), maxDayHours: 23 };
    const trusted = reviewOf(facts({ cadence, premium: true, teleAgeDays: 2_000 }), rules);
    expect(trusted.reasons).toEqual(['noSleep']);
    expect(trusted.score).toBe(5);
    expect(trusted.evidence.trust).toEqual({ teleAgeDays: 2_000, xAgeDays: 0, premium: true, points: 25 });
    const script = { ...emptyCadence(), windows: 5, regularWindows: 5, activeMs: 600_000, capMs: 600_000 };
    const two = reviewOf(facts({ cadence: script, premium: true, teleAgeDays: 2_000, xAgeDays: 400 }), rules);
    expect(two.evidence.trust?.points).toBe(30);
    expect(two.score).toBeGreaterThanOrEqual(rules.reviewScore);
  });

  it('finds a referral farm with two referral reasons, and its idle invitees', () => {
    const farm = reviewOf(facts({ invites: { invites: 300, aged: 300, agedIdle: 300, burstMax: 120, sharing: 0, treeSize: 0, treeYoung: 0, paidJudged: 0, paidStopped: 0 } }), rules);
    expect(farm.reasons).toEqual(['referralBurst', 'referralsIdle']);
    expect(farm.referralFarm).toBe(true);
    const oneReason = reviewOf(facts({ invites: { invites: 40, aged: 40, agedIdle: 39, burstMax: 3, sharing: 0, treeSize: 0, treeYoung: 0, paidJudged: 0, paidStopped: 0 } }), rules);
    expect(oneReason.referralFarm).toBe(false);
    expect(oneReason.score).toBeLessThan(rules.reviewScore);
    const invitee = reviewOf(facts({ invitedBy: { referrerId: 5, referrerFarm: true, reached100: false, stoppedAfterPaid: false, referrerPaidStop: null } }), rules);
    expect(invitee.reasons).toEqual(['referralFarmInvitee']);
    const played = reviewOf(facts({ invitedBy: { referrerId: 5, referrerFarm: true, reached100: true, stoppedAfterPaid: false, referrerPaidStop: null } }), rules);
    expect(played.reasons).toEqual([]);
  });

  it('finds many accounts on one device, and a client that is not the mini-app', () => {
    expect(reviewOf(facts({ deviceAccounts: rules.deviceMaxAccounts }), rules).reasons).toEqual([]);
    expect(reviewOf(facts({ deviceAccounts: rules.deviceMaxAccounts + 1 }), rules).reasons).toEqual(['sharedDevice']);
    expect(reviewOf(facts({ withoutApp: true, withApp: false }), rules).reasons).toEqual(['apiClient']);
    // An old client once, the mini-app since: not a signal.
    expect(reviewOf(facts({ withoutApp: true, withApp: true }), rules).reasons).toEqual([]);
  });
});

describe('the state of a review', () => {
  const none = { decision: null, decidedReasons: [] } as const;
  it('is review at the score, clear below it', () => {
    expect(stateOf(50, ['sharedDevice'], none, 50)).toBe('review');
    expect(stateOf(49, ['sharedDevice'], none, 50)).toBe('clear');
  });
  it('keeps an exclusion whatever the signals say', () => {
    expect(stateOf(0, [], { decision: 'excluded', decidedReasons: [] }, 50)).toBe('excluded');
  });
  it('keeps a clearing until a reason the operator did not see appears', () => {
    const cleared = { decision: 'cleared', decidedReasons: ['sharedDevice'] } as const;
    expect(stateOf(90, ['sharedDevice'], cleared, 50)).toBe('clear');
    expect(stateOf(90, ['sharedDevice', 'tapRhythm'], cleared, 50)).toBe('review');
  });
});
