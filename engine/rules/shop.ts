import { clickValue, maxEnergy } from './energy.ts';

/**
 * The Stars shop's rules (docs/shop.md): what each kind of item does to a player's state. The
 * server applies them when a payment is credited or refunded; the client predicts taps with the
 * same multiplier (engine/rules/clicks.ts), so a paid double-tap day shows on the next tap.
 */

/** What an item does: full energy now, a stretch of doubled tap value, or taps credited at once. */
export type ShopEffect = 'energyRefill' | 'doubleTap' | 'autoTaps';
export const shopEffects: readonly ShopEffect[] = ['energyRefill', 'doubleTap', 'autoTaps'];
export const isShopEffect = (v: unknown): v is ShopEffect => (shopEffects as readonly unknown[]).includes(v);

/** The double-tap item's multiplier of the tap value. */
export const doubleTapMultiplier = 2;

/** How an item's `amount` reads for each effect (docs/shop.md "Catalog"). */
export const shopAmountUnit: Record<ShopEffect, 'none' | 'hours' | 'taps'> = { energyRefill: 'none', doubleTap: 'hours', autoTaps: 'taps' };

/** Bounds the console keeps an item's amount in (hours of double taps, taps of a pack). */
export const shopAmountMax: Record<ShopEffect, number> = { energyRefill: 0, doubleTap: 7 * 24, autoTaps: 1_000_000 };

/** Telegram's bounds on a Stars price (`createInvoiceLink`, one price in XTR) and our daily limit's. */
export const starsPriceMax = 10_000;
export const dailyLimitMax = 100;
/** Telegram refuses an invoice title over 32 characters. */
export const invoiceTitleMax = 32;

/** The tap value's multiplier at `nowMs` while a double-tap stretch runs until `tapBoostUntilMs` (0: none). */
export const tapMultiplier = (tapBoostUntilMs: number, nowMs: number): number => (nowMs < tapBoostUntilMs ? doubleTapMultiplier : 1);

/** A double-tap stretch bought at `nowMs`: it starts now, or where a running one ends (days stack). */
export const extendTapBoost = (tapBoostUntilMs: number, nowMs: number, hours: number): number => Math.max(tapBoostUntilMs, nowMs) + hours * 3_600_000;

/** An energy refill: energy set to the maximum now; returns the energy it gave (what a refund may take back). */
export const refillEnergy = (available: number, energyLevel: number): { energy: number; gained: number } => {
  const max = maxEnergy(energyLevel);
  return { energy: max, gained: Math.max(0, max - available) };
};

/** Dollars a pack of `taps` auto-taps earns at once: the tap value (doubled while a stretch runs) per tap, no energy spent. */
export const autoTapEarnings = (taps: number, fingerLevel: number, multiplier: number): number => taps * clickValue(fingerLevel) * multiplier;

/** The order states (docs/shop.md "Orders"). */
export type OrderState = 'created' | 'approved' | 'paid' | 'refunded';
export const orderStates: readonly OrderState[] = ['created', 'approved', 'paid', 'refunded'];

/** The shop as the mini-app sees it: the items on sale in the player's language and how many are left today. */
export interface ShopItemView {
  id: string;
  effect: ShopEffect;
  title: string;
  /** Stars (XTR), whole. */
  price: number;
  /** Hours of double taps, or taps in a pack; 0 for a refill. */
  amount: number;
  dailyLimit: number;
  /** Bought today (UTC): the item is sold out at dailyLimit. */
  boughtToday: number;
}

export interface ShopView {
  items: ShopItemView[];
}

/** `GET /shop/orders/:orderId`: where an order stands (the mini-app asks while a payment is pending). */
export interface ShopOrderState {
  orderId: string;
  state: OrderState;
  itemId: string;
  price: number;
}

/** `POST /shop/orders`: the order and the invoice link the mini-app opens with `openInvoice`. */
export interface ShopOrderView {
  orderId: string;
  state: OrderState;
  itemId: string;
  price: number;
  invoiceLink: string;
}
