import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The bot token in use, and whether it is a made-up development token (no bot can run on it). */
export interface BotToken {
  token: string;
  development: boolean;
}

export const devTokenFile = 'dev-bot-token';

/**
 * BOT_TOKEN when set; otherwise a development token kept in DATA_DIR/dev-bot-token, made once, so
 * init data signed for a demo launch stays valid across restarts. It has Telegram's shape
 * (`<bot id>:<35 characters>`) but no bot behind it.
 */
export const resolveBotToken = (botToken: string | undefined, dataDir: string): BotToken => {
  if (botToken !== undefined) return { token: botToken, development: false };
  const file = join(resolve(dataDir), devTokenFile);
  if (existsSync(file)) {
    const saved = readFileSync(file, 'utf8').trim();
    if (/^\d+:[A-Za-z0-9_-]{20,}$/.test(saved)) return { token: saved, development: true };
  }
  const token = `${randomInt(1_000_000_000, 2_000_000_000)}:${randomBytes(27).toString('base64url')}`;
  mkdirSync(resolve(dataDir), { recursive: true });
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return { token, development: true };
};
