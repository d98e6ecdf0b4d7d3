import { titleTiers, type TitleTier } from './economy.ts';

/** §2: the mean of teleAge and twAge, in days. */
export const meanAgeDays = (teleAgeDays: number, twAgeDays: number): number => (teleAgeDays + twAgeDays) / 2;

/** §2: the title tier for a mean age in days ("up to" is inclusive). */
export const titleFor = (teleAgeDays: number, twAgeDays: number): TitleTier => {
  const mean = meanAgeDays(teleAgeDays, twAgeDays);
  return titleTiers.find((t) => mean <= t.maxMeanAgeDays) ?? titleTiers[titleTiers.length - 1]!;
};

/** The catalog id of a title's name: "Cash Enthusiast" → `app.title.cashEnthusiast` (docs/i18n.md). */
export const titleCatalogId = (tier: TitleTier): string =>
  `app.title.${tier.name.replace(/ (\w)/g, (_m, c: string) => c.toUpperCase()).replace(/^\w/, (c) => c.toLowerCase())}`;
