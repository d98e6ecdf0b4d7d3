import { demoPaths, type DemoService } from '../../engine/wire/api-types.ts';
import { config } from '../config.ts';

/** True when the server plays `service` with a local demo stand-in (`npm start` without credentials). */
export const isDemo = (service: DemoService): boolean => config.demoServices?.includes(service) ?? false;

/** In the demo, t.me channel and boost links open the Telegram stand-in's page for this user. */
export const demoTelegramLink = (link: string, userId: number | undefined): string | null => {
  if (!isDemo('telegram') || userId === undefined || !link.startsWith('https://t.me/')) return null;
  return `${demoPaths.telegramPage}${link.slice('https://t.me/'.length)}?user=${userId}`;
};

/**
 * How the demo leaves for an outside page in this tab; tests replace `to` (window.location cannot
 * be stubbed). X's consent page opens here in the demo: its callback returns to /app, and only
 * this tab keeps the launch's init data (a new tab has none, and would be sent on to the bot).
 */
export const demoLeave = { to: (url: string): void => window.location.assign(url) };
