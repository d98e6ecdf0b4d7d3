/**
 * The shop's catalog (docs/shop.md "Catalog"): the items the console defines, each with a price in
 * Stars, a daily limit, an on/off switch and a title in every language. The player sees the items
 * on sale in their language with what is left of today's limit.
 */
import { dailyLimitMax, invoiceTitleMax, isShopEffect, shopAmountMax, starsPriceMax, type ShopEffect, type ShopItemView } from '../../engine/rules/shop.ts';
import { localeForLanguageCode, locales, type Locale } from '../../engine/rules/i18n/locales.ts';
import type { AdminShopItem, AdminShopItemEdit } from '../../engine/wire/admin-types.ts';
import type { Db, Queryable } from '../core/db/db.ts';
import { transaction } from '../core/db/transaction.ts';
import { refuse } from '../core/errors.ts';
import { recordAudit, type Actor } from '../audit/exports.ts';

/** An item of the catalog, as the console reads it (engine/wire/admin-types.ts). */
export type ShopItem = AdminShopItem;

interface ItemRow {
  id: string;
  effect: ShopEffect;
  price_stars: number;
  amount: number;
  daily_limit: number;
  enabled: boolean;
  titles: Record<string, string> | string;
  position: number;
}

const itemOf = (r: ItemRow): ShopItem => {
  const titles = (typeof r.titles === 'string' ? JSON.parse(r.titles) : r.titles) as Record<Locale, string>;
  return { id: r.id, effect: r.effect, priceStars: r.price_stars, amount: r.amount, dailyLimit: r.daily_limit, enabled: r.enabled, titles, position: r.position };
};

/** The item's title in `locale`, English when an operator left it out. */
export const titleIn = (item: Pick<ShopItem, 'titles' | 'id'>, locale: Locale): string => item.titles[locale] || item.titles.en || item.id;

export const loadItem = async (q: Queryable, id: string, lock = false): Promise<ShopItem | null> => {
  const r = await q.query<ItemRow>(`SELECT * FROM shop_items WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
  return r.rows[0] ? itemOf(r.rows[0]) : null;
};

/** Every item, on sale or not, in the console's order. The catalog is a handful of rows. */
export const listItems = async (q: Queryable): Promise<ShopItem[]> =>
  (await q.query<ItemRow>('SELECT * FROM shop_items ORDER BY position, id')).rows.map(itemOf);

/** The UTC day number of `nowMs` (days since 1970-01-01), the daily limit's day. */
export const utcDay = (nowMs: number): number => Math.floor(nowMs / 86_400_000);

/** How many of each item the player bought (paid, not refunded) today: one index range per player. */
export const boughtToday = async (q: Queryable, userId: number, nowMs: number, itemId?: string): Promise<Map<string, number>> => {
  const r = await q.query<{ item_id: string; n: number }>(
    "SELECT item_id, count(*)::int AS n FROM shop_orders WHERE user_id = $1 AND state = 'paid' AND paid_day = $2 AND ($3::text IS NULL OR item_id = $3) GROUP BY item_id",
    [userId, utcDay(nowMs), itemId ?? null],
  );
  return new Map(r.rows.map((x) => [x.item_id, Number(x.n)]));
};

/** The player's language: the one chosen in the mini-app, else Telegram's (docs/i18n.md). */
export const playerLocale = async (q: Queryable, userId: number, telegramLanguage: string | null | undefined): Promise<Locale> => {
  const r = await q.query<{ language: string | null }>('SELECT language FROM users WHERE id = $1', [userId]);
  return localeForLanguageCode(r.rows[0]?.language ?? telegramLanguage);
};

/** GET /shop: the items on sale in the player's language. */
export const shopFor = async (db: Db, userId: number, telegramLanguage: string | null | undefined, nowMs: number): Promise<ShopItemView[]> => {
  const locale = await playerLocale(db, userId, telegramLanguage);
  const [items, bought] = await Promise.all([listItems(db), boughtToday(db, userId, nowMs)]);
  return items
    .filter((i) => i.enabled)
    .map((i) => ({ id: i.id, effect: i.effect, title: titleIn(i, locale), price: i.priceStars, amount: i.amount, dailyLimit: i.dailyLimit, boughtToday: bought.get(i.id) ?? 0 }));
};

/** What the console sends to change an item (docs/admin.md "Shop"); every field is checked. */
export type ItemEdit = AdminShopItemEdit;

const intIn = (v: number, min: number, max: number) => Number.isSafeInteger(v) && v >= min && v <= max;

/** The problems of an edit of `item`, by field (empty: good). */
export const editProblems = (effect: ShopEffect, e: ItemEdit): Record<string, string> => {
  const p: Record<string, string> = {};
  if (e.priceStars !== undefined && !intIn(e.priceStars, 1, starsPriceMax)) p.priceStars = `must be a whole number of Stars from 1 to ${starsPriceMax}`;
  if (e.dailyLimit !== undefined && !intIn(e.dailyLimit, 1, dailyLimitMax)) p.dailyLimit = `must be from 1 to ${dailyLimitMax}`;
  if (e.amount !== undefined && !(shopAmountMax[effect] === 0 ? e.amount === 0 : intIn(e.amount, 1, shopAmountMax[effect])))
    p.amount = shopAmountMax[effect] === 0 ? 'must be 0 for an energy refill' : `must be from 1 to ${shopAmountMax[effect]}`;
  if (e.titles !== undefined) {
    const unknown = Object.keys(e.titles).filter((k) => !(locales as readonly string[]).includes(k));
    const missing = locales.filter((l) => !e.titles![l]?.trim());
    const long = locales.filter((l) => [...(e.titles![l] ?? '')].length > invoiceTitleMax);
    if (unknown.length) p.titles = `unknown languages: ${unknown.join(', ')}`;
    else if (missing.length) p.titles = `a title is needed in every language; missing: ${missing.join(', ')}`;
    else if (long.length) p.titles = `Telegram allows at most ${invoiceTitleMax} characters; too long: ${long.join(', ')}`;
  }
  return p;
};

/** The console changes an item (price, limit, switch, titles): one transaction with its audit row. */
export const updateShopItem = (db: Db, actor: Actor, id: string, edit: ItemEdit, nowMs: number): Promise<ShopItem> =>
  transaction(db, async (tx) => {
    const before = await loadItem(tx, id, true);
    if (before === null) throw refuse('shopItemNotFound', { field: 'id', values: { itemId: id } });
    if (!isShopEffect(before.effect)) throw new Error(`shop item ${id} has an unknown effect`);
    const problems = editProblems(before.effect, edit);
    const first = Object.keys(problems)[0];
    if (first !== undefined) throw refuse('shopItemInvalid', { field: first, values: { problem: problems[first]! }, fields: problems });
    const titles = edit.titles === undefined ? before.titles : Object.fromEntries(locales.map((l) => [l, edit.titles![l]!.trim()]));
    await tx.query(
      `UPDATE shop_items SET price_stars = $2, amount = $3, daily_limit = $4, enabled = $5, titles = $6::jsonb, updated_at_ms = $7 WHERE id = $1`,
      [id, edit.priceStars ?? before.priceStars, edit.amount ?? before.amount, edit.dailyLimit ?? before.dailyLimit, edit.enabled ?? before.enabled, JSON.stringify(titles), nowMs],
    );
    const after = (await loadItem(tx, id))!;
    await recordAudit(tx, { actor, action: 'shop.item', target: `shop-item:${id}`, before, after, nowMs });
    return after;
  });
