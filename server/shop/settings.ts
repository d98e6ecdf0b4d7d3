/**
 * Config of the Stars shop (docs/shop.md), composed into the server's one schema by
 * server/background/settings.ts. Whether bought boosts count toward the airdrop is the airdrop's
 * setting (server/airdrop/settings.ts), which reads it.
 */
import { z } from 'zod';

export const shopSettings = {
  /** How often the reconciliation job compares our payments with getStarTransactions (ms). */
  SHOP_RECONCILE_MS: z.coerce.number().int().min(60_000).default(3_600_000),
};

/** What the shop's settings hold once validated. */
export type ShopSettings = z.output<z.ZodObject<typeof shopSettings>>;
