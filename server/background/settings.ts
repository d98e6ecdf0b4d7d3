/**
 * The server's one settings schema: core's own keys and every feature's, each feature's shape kept
 * in its folder's settings.ts (docs/configuration.md). Composed here, above core and the features,
 * so core imports no feature; core's loader validates it once at start and lists every problem.
 */
import type { z } from 'zod';
import { configSchemaOf, loadSettings } from '../core/config/config.ts';
import { airdropSettings } from '../airdrop/exports.ts';
import { botSettings } from '../bot/exports.ts';
import { consoleSettings } from '../console/exports.ts';
import { dailySettings } from '../daily/exports.ts';
import { integritySettings } from '../integrity/exports.ts';
import { leaderboardSettings } from '../leaderboard/exports.ts';
import { referralsSettings } from '../referrals/exports.ts';
import { shopSettings } from '../shop/exports.ts';
import { tasksSettings } from '../tasks/exports.ts';
import { xAccountSettings } from '../x-account/exports.ts';

export const configSchema = configSchemaOf({
  ...tasksSettings,
  ...xAccountSettings,
  ...botSettings,
  ...leaderboardSettings,
  ...referralsSettings,
  ...airdropSettings,
  ...consoleSettings,
  ...integritySettings,
  ...dailySettings,
  ...shopSettings,
});

export type Config = z.output<typeof configSchema>;

/** Validates the environment once, throwing one error that lists every problem. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return loadSettings(configSchema, env);
}
