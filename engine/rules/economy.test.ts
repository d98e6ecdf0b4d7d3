import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { boostCatalogue, economy, passiveItemKeys, referralLevels, roadmap, titleTiers } from './economy.ts';

// Spec §9, transcribed by hand: the table must say the same.
const specPassiveItems: [number, number, number][] = [
  [4, 275, 2], [5, 750, 3], [6, 6_500, 13], [7, 17_500, 18], [8, 50_000, 20], [9, 165_000, 22],
  [10, 510_000, 26], [11, 1.5e6, 32], [12, 4e6, 40], [13, 11.2e6, 52], [14, 34e6, 86], [15, 84e6, 116],
  [16, 208e6, 168], [17, 496e6, 240], [18, 22.72e9, 352], [19, 960e9, 664], [20, 30.4e12, 1_024], [21, 2_160e12, 2_040],
];
const specReferral: [number, number, number][] = [
  [1, 10, 0], [2, 20, 100], [3, 30, 200], [4, 50, 500], [5, 100, 1_000], [6, 200, 2_000], [7, 500, 5_000],
  [8, 1_000, 10_000], [9, 2_500, 20_000], [10, 5_000, 30_000], [11, 10_000, 40_000], [12, 20_000, 50_000],
  [13, 50_000, 75_000], [14, 100_000, 100_000],
];

describe('the economy table', () => {
  it('holds every number of spec §9', () => {
    expect(economy).toMatchObject({
      compactAboveDollars: 500_000, defaultDecimals: 2, compactDecimals: 1, walletCompactAboveDollars: 999_999_999_999, wideLayoutPx: 375,
      energyPerLevel: 500, autoClickCap: 53, energyRegenIntervalMs: 5_000, passiveTickMs: 1_000, autoClickIntervalMs: 10_000,
      offlineClaimIntervalMs: 90_000, clickBatchDebounceMs: 300, clickCounterResetIdleMs: 3_000, upgradeCooldownLabel: '1s',
      boostTaskTarget: 10, adsPerDay: 10, pageSize: 10, pendingFriendThresholdDollars: 100, referralSharePercent: 5, refcodeLength: 6,
      exchangeCheckMs: 5_000, boostCheckDelayWithChannelMs: 10_000, boostCheckDelayMs: 500, onboardingProgressStepMs: 30,
      onboardingProgressStepPercent: 1, statsRefreshMs: 3_600_000, roadmapScrollPx: 400,
      forecastPrizeMoney: 7_777, dollarsPerMoney: 100_000_000_000, rewardCardAmount: 25_235,
      minimumUserAgeYears: 13, privacyReplyDays: 30, termsNoticeDays: 30, imageExportTimeoutMs: 30_000,
    });
    expect(boostCatalogue[1]).toMatchObject({ title: 'Handheld', basePriceDollars: 15, priceGrowth: { num: 2, den: 1 }, maxLevel: 5_059 });
    expect(boostCatalogue[2]).toMatchObject({ title: 'Limit', basePriceDollars: 500, priceGrowth: { num: 2, den: 1 }, maxLevel: 5_059 });
    expect(boostCatalogue[3]).toMatchObject({ title: 'Finger', basePriceDollars: 100, priceGrowth: { num: 3, den: 2 }, maxLevel: 5_047 });
    for (const [key, base, perClick] of specPassiveItems) {
      expect(boostCatalogue[key as 4]).toMatchObject({ basePriceDollars: base, perClick, priceGrowth: { num: 3, den: 2 } });
    }
    expect(boostCatalogue[4].maxLevel).toBe(5_028);
    expect(boostCatalogue[21].maxLevel).toBe(4_638);
    expect(referralLevels.map((r) => [r.level, r.friendLimit, r.priceMoney])).toEqual(specReferral);
  });

  it('matches the tables of the spec file itself when it is beside the repository', () => {
    const specPath = new URL('../../../shared/spec.md', import.meta.url);
    if (!existsSync(specPath)) return;
    const spec = readFileSync(specPath, 'utf8');
    const section9 = spec.slice(spec.indexOf('## 9.'));
    const [itemsTable = '', referralTable = ''] = section9.split('**Referral level table**');
    const scale: Record<string, number> = { '': 1, M: 1e6, B: 1e9, T: 1e12 };
    const items = [...itemsTable.matchAll(/^\| (\d+) \| ([\d.]+)([MBT]?) \| ([\d]+) \|$/gm)].map((m) => [
      Number(m[1]), Math.round(Number(m[2]) * scale[m[3]!]!), Number(m[4]),
    ]);
    expect(items).toEqual(specPassiveItems);
    const referral = [...referralTable.matchAll(/^\| (\d+) \| (\d+) \| (\d+) \|$/gm)].map((m) => m.slice(1, 4).map(Number));
    expect(referral).toEqual(specReferral);
  });

  it('names the 18 passive items of spec §3 in order, each with a description and an image', () => {
    expect(passiveItemKeys.map((k) => boostCatalogue[k].title)).toEqual([
      'Piggy Bank', 'Coin Jar', 'Cash Register', 'Gold Safe', 'ATM Machine', 'Stock Portfolio', 'Real Estate',
      'Vending Machine', 'Crypto Miner', 'Treasury Bond', 'Luxury Yacht', 'Casino', 'Bank', 'Trading Floor',
      'Hedge Fund', 'Prism of Wealth', 'Luck Charm', 'Fractal Market',
    ]);
    for (const k of passiveItemKeys) expect(boostCatalogue[k].description.length).toBeGreaterThan(5);
    expect(new Set(Object.values(boostCatalogue).map((b) => b.image)).size).toBe(21);
  });

  it('steps item maximum levels down from 5028 to 4638', () => {
    const levels = passiveItemKeys.map((k) => boostCatalogue[k].maxLevel);
    for (let i = 1; i < levels.length; i++) expect(levels[i]).toBeLessThan(levels[i - 1]!);
  });

  it('lists the 5 title tiers and the 8 roadmap phases of spec §2', () => {
    expect(titleTiers.map((t) => [t.name, t.maxMeanAgeDays])).toEqual([
      ['Cash Enthusiast', 365], ['Wealth Builder', 1_095], ['Profit Pro', 1_825], ['Fortune Master', 3_650], ['Rich Legend', Infinity],
    ]);
    expect(roadmap.map((r) => r.date)).toEqual([
      'September 2024', 'September 2024', 'October 2024', 'January 2025',
      '1st Quarter 2025', '2nd Quarter 2025', '2nd Quarter 2025', '3rd Quarter 2025',
    ]);
  });
});
