/**
 * The operator console's settings (docs/admin.md, docs/configuration.md). Composed into the one
 * config schema by server/background/settings.ts; every key is the env variable's own name.
 */
import { z } from 'zod';

const idList = z
  .string()
  .trim()
  .regex(/^(\d{1,20}(\s*,\s*\d{1,20})*)?$/, 'must be Telegram user ids separated by commas')
  .default('');

export const consoleSettings = {
  /** Telegram user ids allowed into /admin, comma-separated; empty closes the console. */
  ADMIN_IDS: idList,
  /** How long a console session lasts, in seconds (default 8 h). */
  ADMIN_SESSION_TTL_S: z.coerce.number().int().min(60).max(30 * 86_400).default(8 * 3_600),
  /** Maximum age of the Login Widget's or the bot's signed data at sign-in, in seconds. */
  ADMIN_LOGIN_MAX_AGE_S: z.coerce.number().int().min(30).max(86_400).default(600),
  /** Key (x-api-key) of the operator API (forecast settlement); empty turns that API off. */
  OPERATOR_API_KEY: z.string().trim().default(''),
};

/** The admin ids of a config, as numbers. */
export const adminIdsOf = (c: { ADMIN_IDS: string }): ReadonlySet<number> =>
  new Set(c.ADMIN_IDS.split(',').map((s) => s.trim()).filter(Boolean).map(Number));

/** What the bot's /admin command needs: the console's URL and who may have it. */
export const botAdminOf = (c: { ADMIN_IDS: string; PUBLIC_URL?: string | undefined; PORT: number }) => ({
  url: `${(c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, '')}/admin`,
  ids: adminIdsOf(c),
});
