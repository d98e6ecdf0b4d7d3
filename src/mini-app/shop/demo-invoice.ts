import { demoPaths } from '../../../engine/wire/api-types.ts';
import type { InvoiceStatus } from '../../telegram.ts';
import { loadScript } from '../ui/load-script.ts';

declare global {
  interface Window {
    /** The demo's payment sheet (server/dev/stand-ins/stars-sheet.ts), marked "demo". */
    DemoStars?: { open(link: string, userId: number, done: (status: InvoiceStatus) => void): void };
  }
}

/** In the demo, the Stars stand-in's payment sheet plays Telegram's (docs/outside-services.md "Demo stand-ins"). */
export const openDemoInvoice = async (link: string, userId: number): Promise<InvoiceStatus> => {
  if (!window.DemoStars) await loadScript(demoPaths.starsScript);
  const sheet = window.DemoStars;
  if (!sheet) return 'unsupported';
  return new Promise((resolve) => sheet.open(link, userId, resolve));
};
