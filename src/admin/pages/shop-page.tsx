import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { AdminRefundResult, AdminShop, AdminShopItem, AdminShopItemEdit, AdminShopOrder, AdminStarsFlag, AdminUnmatchedPayment } from '../../../engine/wire/admin-types.ts';
import { dirOf, localeNames, locales } from '../../../engine/rules/i18n/locales.ts';
import { dailyLimitMax, invoiceTitleMax, shopAmountMax, shopAmountUnit, starsPriceMax, type OrderState, type ShopEffect } from '../../../engine/rules/shop.ts';
import { AdminApiError, get, post } from '../api.ts';
import { Field } from '../field.tsx';
import { PagedPanel, usePaged } from '../paged-panel.tsx';
import { StarsRevenue } from '../stars-revenue.tsx';
import { formatAmount, formatNumber, formatTime, useLoad } from '../use-load.ts';

const revenueDays = 14;

const effectNames: Record<ShopEffect, string> = { energyRefill: 'Energy refill', doubleTap: 'Double taps', autoTaps: 'Auto-tap pack' };
const amountLabel: Record<ShopEffect, string> = { energyRefill: '', doubleTap: 'Hours of double taps', autoTaps: 'Taps in the pack' };

const stateBadge: Record<OrderState, string> = { created: 'badge badge--warn', approved: 'badge badge--warn', paid: 'badge', refunded: 'badge badge--bad' };

const problemNames: Record<AdminStarsFlag['problem'], string> = {
  unknownHere: 'Paid at Telegram, never received here',
  missingAtTelegram: 'Ours, not listed by Telegram a day later',
  starsDiffer: 'Stars differ',
  refundDiffers: 'Refund not recorded here',
};

const errorOf = (e: unknown): string => (e instanceof AdminApiError ? `${e.field ? `${e.field}: ` : ''}${e.message}` : String(e));

/** What a refund took back, or could not, in words: "1,200 energy", "3 h 10 min of double taps", "$4,000.00". */
const describeEffect = (parts: Record<string, number | string>): string[] =>
  Object.entries(parts).flatMap(([k, v]) => {
    if (k === 'dollars') return Number(v) > 0 ? [`$${formatAmount(String(v))}`] : [];
    const n = Number(v);
    if (!(n > 0)) return [];
    if (k === 'energy') return [`${formatNumber(n)} energy`];
    const minutes = Math.round(n / 60_000);
    const time = `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
    return [k === 'boostMsPlayed' ? `${time} of double taps already played` : `${time} of double taps`];
  });

/** The editor of one item: price, amount, daily limit, switch and the nine titles; the server's field errors under their fields. */
const ItemEditor = ({ item, done }: { item: AdminShopItem; done(saved: boolean): void }) => {
  const [form, setForm] = useState<Required<AdminShopItemEdit>>({ priceStars: item.priceStars, amount: item.amount, dailyLimit: item.dailyLimit, enabled: item.enabled, titles: { ...item.titles } });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      await post<AdminShopItem>(`/shop/items/${item.id}`, form);
      setErrors({});
      done(true);
    } catch (e) {
      setErrors(e instanceof AdminApiError ? (e.fields ?? { [e.field ?? 'form']: e.message }) : { form: String(e) });
    } finally {
      setBusy(false);
    }
  };
  const whole = (v: string) => (v.trim() === '' ? Number.NaN : Number(v));
  return (
    <section className="panel editor" aria-label={`Edit ${item.id}`}>
      <h2>Edit {item.id}</h2>
      <div className="form">
        <div className="form__row">
          <Field label={`Price in Stars (1–${formatNumber(starsPriceMax)})`} error={errors.priceStars}>
            <input inputMode="numeric" value={Number.isNaN(form.priceStars) ? '' : form.priceStars} onChange={(e) => setForm({ ...form, priceStars: whole(e.target.value) })} />
          </Field>
          <Field label={`Daily limit a player (1–${dailyLimitMax})`} error={errors.dailyLimit}>
            <input inputMode="numeric" value={Number.isNaN(form.dailyLimit) ? '' : form.dailyLimit} onChange={(e) => setForm({ ...form, dailyLimit: whole(e.target.value) })} />
          </Field>
          {shopAmountUnit[item.effect] !== 'none' && (
            <Field label={`${amountLabel[item.effect]} (1–${formatNumber(shopAmountMax[item.effect])})`} error={errors.amount}>
              <input inputMode="numeric" value={Number.isNaN(form.amount) ? '' : form.amount} onChange={(e) => setForm({ ...form, amount: whole(e.target.value) })} />
            </Field>
          )}
        </div>
        <div className="checks">
          <label><input type="checkbox" checked={form.enabled} onChange={(e) => setForm({ ...form, enabled: e.target.checked })} /> On sale</label>
        </div>
        <fieldset className={`titles${errors.titles ? ' field--bad' : ''}`}>
          <legend className="field__label">Title in each language (at most {invoiceTitleMax} characters: Telegram’s limit for an invoice title)</legend>
          <div className="titles__grid">
            {locales.map((l) => (
              <label key={l} className="field">
                <span className="field__label">{localeNames[l]} <span className="muted">{[...(form.titles[l] ?? '')].length}/{invoiceTitleMax}</span></span>
                <input dir={dirOf(l)} lang={l} value={form.titles[l] ?? ''} onChange={(e) => setForm({ ...form, titles: { ...form.titles, [l]: e.target.value } })} />
              </label>
            ))}
          </div>
          {errors.titles && <span className="field__error" role="alert">{errors.titles}</span>}
        </fieldset>
        {errors.form && <p className="error" role="alert">{errors.form}</p>}
        <div className="actions">
          <button type="button" className="btn" disabled={busy} onClick={() => void save()}>Save</button>
          <button type="button" className="btn btn--ghost" onClick={() => done(false)}>Cancel</button>
        </div>
      </div>
    </section>
  );
};

const Catalog = ({ items, onSaved }: { items: AdminShopItem[]; onSaved(): void }) => {
  const [editing, setEditing] = useState<string>();
  const item = items.find((i) => i.id === editing);
  return (
    <section className="panel">
      <h2>Catalog</h2>
      <p className="muted small">Players see the items on sale on the Boost screen, in their language; an edit applies to orders made after it (an order keeps the price and amount it was made with).</p>
      <div className="table-wrap">
        <table data-testid="shop-items">
          <thead>
            <tr><th>Item</th><th>Effect</th><th className="num">Price</th><th className="num">Amount</th><th className="num">Daily limit</th><th>Sale</th><th /></tr>
          </thead>
          <tbody>
            {items.map((i) => (
              <tr key={i.id} className={i.enabled ? '' : 'off'} data-testid={`shop-item-${i.id}`}>
                <td><strong>{i.titles.en}</strong><div className="muted small"><code>{i.id}</code></div></td>
                <td>{effectNames[i.effect]}</td>
                <td className="num nowrap">{formatNumber(i.priceStars)} ★</td>
                <td className="num">{shopAmountUnit[i.effect] === 'none' ? '—' : `${formatNumber(i.amount)} ${shopAmountUnit[i.effect]}`}</td>
                <td className="num">{formatNumber(i.dailyLimit)}</td>
                <td>{i.enabled ? <span className="badge">on</span> : <span className="badge badge--bad">off</span>}</td>
                <td><button type="button" className="btn btn--ghost btn--small" onClick={() => setEditing(editing === i.id ? undefined : i.id)}>{editing === i.id ? 'Close' : 'Edit'}</button></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {item && (
        <ItemEditor
          key={item.id}
          item={item}
          done={(saved) => {
            setEditing(undefined);
            if (saved) onSaved();
          }}
        />
      )}
    </section>
  );
};

/** What the last refund did, said once under the orders: the Stars back, what was taken back, what could not be. */
const RefundNote = ({ result }: { result: AdminRefundResult & { stars: number } }) => {
  const taken = describeEffect(result.taken);
  const notTaken = describeEffect(result.notTaken);
  return (
    <div role="status" className="refund-note" data-testid="refund-result">
      <p>Order {result.orderId} refunded: {formatNumber(result.stars)} ★ went back to the player.</p>
      <p>Taken back: {taken.length ? taken.join(', ') : 'nothing left to take'}.</p>
      <p className={notTaken.length ? 'refund-note__kept' : ''}>{notTaken.length ? `Could not be taken back (already used): ${notTaken.join(', ')}.` : 'Everything the order gave was taken back.'}</p>
    </div>
  );
};

const Orders = ({ onRefunded }: { onRefunded(): void }) => {
  const list = usePaged<AdminShopOrder>('/shop/orders');
  const [result, setResult] = useState<AdminRefundResult & { stars: number }>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState<string>();
  const refund = async (o: AdminShopOrder) => {
    if (!window.confirm(`Refund order ${o.id}: ${formatNumber(o.priceStars)} ★ back to player ${o.userId}, and take back what the ${o.itemId} gave as far as it is unused? This cannot be undone.`)) return;
    setBusy(o.id);
    try {
      setResult({ ...(await post<AdminRefundResult>(`/shop/orders/${o.id}/refund`)), stars: o.priceStars });
      setError(undefined);
      list.page.reload();
      onRefunded();
    } catch (e) {
      setError(errorOf(e));
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <>
      {result && <RefundNote result={result} />}
      {error && <p className="error" role="alert">{error}</p>}
      <PagedPanel
        title="Orders"
        testId="shop-orders"
        list={list}
        columns={8}
        empty="No orders yet."
        head={<tr><th>Order</th><th>Player</th><th>Item</th><th className="num">Stars</th><th>State</th><th>Made</th><th>Paid / refunded</th><th /></tr>}
        row={(o) => (
          <tr key={o.id} data-testid={`shop-order-${o.id}`}>
            <td className="num">{o.id}</td>
            <td><Link to={`/players/${o.userId}`}>{o.userId}</Link></td>
            <td><code>{o.itemId}</code></td>
            <td className="num nowrap">{formatNumber(o.priceStars)} ★</td>
            <td><span className={stateBadge[o.state]}>{o.state}</span></td>
            <td className="nowrap">{formatTime(o.createdAtMs)}</td>
            <td className="nowrap">
              {formatTime(o.refundedAtMs ?? o.paidAtMs)}
              {o.notTakenBack && describeEffect(o.notTakenBack).length > 0 && <div className="muted small">not taken back: {describeEffect(o.notTakenBack).join(', ')}</div>}
            </td>
            <td>{o.state === 'paid' && <button type="button" className="btn btn--danger btn--small" disabled={busy === o.id} onClick={() => void refund(o)}>Refund</button>}</td>
          </tr>
        )}
      />
    </>
  );
};

/** Payments no order took (gone, or a second charge of a paid order): refunded whole. */
const Unmatched = ({ payments, onRefunded }: { payments: AdminUnmatchedPayment[]; onRefunded(): void }) => {
  const [error, setError] = useState<string>();
  const refund = async (p: AdminUnmatchedPayment) => {
    if (!window.confirm(`Refund ${formatNumber(p.stars)} ★ of payment ${p.chargeId} to player ${p.userId}?`)) return;
    try {
      await post(`/shop/payments/${encodeURIComponent(p.chargeId)}/refund`);
      setError(undefined);
      onRefunded();
    } catch (e) {
      setError(errorOf(e));
    }
  };
  if (payments.length === 0) return null;
  return (
    <section className="panel">
      <h2>Payments no order took</h2>
      <p className="muted small">Telegram charged these, but no order could take them (it was gone, or already paid). They gave the player nothing: refund them.</p>
      {error && <p className="error" role="alert">{error}</p>}
      <div className="table-wrap">
        <table data-testid="shop-unmatched">
          <thead><tr><th>Charge</th><th>Player</th><th className="num">Stars</th><th>Received</th><th /></tr></thead>
          <tbody>
            {payments.map((p) => (
              <tr key={p.chargeId}>
                <td className="mono small">{p.chargeId}</td>
                <td><Link to={`/players/${p.userId}`}>{p.userId}</Link></td>
                <td className="num">{formatNumber(p.stars)} ★</td>
                <td className="nowrap">{formatTime(p.receivedAtMs)}</td>
                <td><button type="button" className="btn btn--danger btn--small" onClick={() => void refund(p)}>Refund</button></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
};

const Flags = ({ flags }: { flags: AdminStarsFlag[] }) => (
  <section className="panel">
    <h2>Reconciliation with Telegram</h2>
    <p className="muted small">A job compares our payments with Telegram’s list of Star transactions (getStarTransactions) and flags every difference here.</p>
    <div className="table-wrap">
      <table data-testid="shop-flags">
        <thead><tr><th>Found</th><th>Charge</th><th>Problem</th><th>Detail</th></tr></thead>
        <tbody>
          {flags.map((f) => (
            <tr key={`${f.chargeId}|${f.problem}`}>
              <td className="nowrap">{formatTime(f.foundAtMs)}</td>
              <td className="mono small">{f.chargeId}</td>
              <td><span className="badge badge--warn">{problemNames[f.problem]}</span></td>
              <td>{f.detail}</td>
            </tr>
          ))}
          {flags.length === 0 && <tr><td colSpan={4} className="muted">No differences found.</td></tr>}
        </tbody>
      </table>
    </div>
  </section>
);

/**
 * The Stars shop (docs/admin.md "Shop", docs/shop.md): the catalog and its edits, revenue a day by
 * item, the orders with their states and their refunds, the payments no order took, and what
 * reconciliation with Telegram flagged. Every edit and refund writes its audit row on the server.
 */
const ShopPage = () => {
  const shop = useLoad(() => get<AdminShop>(`/shop?days=${revenueDays}`), 'shop');
  return (
    <>
      <header className="page__head"><h1>Shop</h1><span className="muted small">Telegram Stars (XTR)</span></header>
      {shop.error && <p className="error" role="alert">{shop.error}</p>}
      {shop.data && (
        <>
          <Catalog items={shop.data.items} onSaved={shop.reload} />
          <StarsRevenue revenue={shop.data.revenue} itemIds={shop.data.items.map((i) => i.id)} days={revenueDays} today={shop.data.today} />
        </>
      )}
      <Orders onRefunded={shop.reload} />
      {shop.data && (
        <>
          <Unmatched payments={shop.data.unmatched} onRefunded={shop.reload} />
          <Flags flags={shop.data.flags} />
        </>
      )}
    </>
  );
};

export default ShopPage;
