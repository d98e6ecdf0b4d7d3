/**
 * Config of the Stars shop (docs/shop.md) and of its place in the airdrop (docs/airdrop.md
 * "Bought boosts"), spread into the server's one schema in config.ts.
 */
import { z } from 'zod';
import { envFlag } from './env-flag.ts';

export const shopConfigShape = {
  /** How often the reconciliation job compares our payments with getStarTransactions (ms). */
  SHOP_RECONCILE_MS: z.coerce.number().int().min(60_000).default(3_600_000),
  /**
   * Whether MONEY earned through a bought boost counts toward the airdrop. Off (the default): the
   * snapshot allocates a player's MONEY less what bought taps earned them (`users.bought_money`).
   */
  AIRDROP_COUNTS_BOUGHT_BOOSTS: envFlag.default(false),
};
