/**
 * The Bot API's Stars calls the shop makes outside any transaction (docs/shop.md): the invoice link,
 * the refund and the list of the bot's Star transactions. They go to BOT_API_ROOT like the bot's
 * own calls, with the outside-call timeout; a failure is an OutsideServiceError naming Telegram.
 */
import { Api, GrammyError } from 'grammy';
import type { CoreConfig } from '../core/config/config.ts';
import { OutsideServiceError, requireSettings } from '../core/outside-http.ts';

type StarsConfig = Pick<CoreConfig, 'BOT_TOKEN' | 'BOT_API_ROOT' | 'OUTSIDE_TIMEOUT_MS'>;

const apiOf = (config: StarsConfig): Api => {
  requireSettings('telegram', { BOT_TOKEN: config.BOT_TOKEN });
  return new Api(config.BOT_TOKEN!, { apiRoot: config.BOT_API_ROOT, timeoutSeconds: Math.max(1, Math.ceil(config.OUTSIDE_TIMEOUT_MS / 1000)) });
};

/** Telegram's refusal of a call, kept apart from its being unreachable. */
export const telegramRefusal = (err: unknown): string | null => (err instanceof GrammyError ? err.description : null);

const fault = (err: unknown): OutsideServiceError =>
  err instanceof GrammyError
    ? new OutsideServiceError('telegram', 'refused', `${err.error_code} ${err.description}`, { cause: err })
    : new OutsideServiceError('telegram', 'unreachable', err instanceof Error ? err.message : String(err), { cause: err });

export interface Invoice {
  title: string;
  description: string;
  /** Our order id, `order:<id>`: what pre_checkout_query and successful_payment carry back. */
  payload: string;
  stars: number;
}

/** createInvoiceLink in Telegram Stars: currency XTR, no provider token, exactly one price. */
export const createStarsInvoiceLink = async (config: StarsConfig, invoice: Invoice): Promise<string> => {
  const api = apiOf(config);
  try {
    return await api.createInvoiceLink(invoice.title, invoice.description, invoice.payload, '', 'XTR', [{ label: invoice.title, amount: invoice.stars }]);
  } catch (err) {
    throw fault(err);
  }
};

/** refundStarPayment; Telegram's "already refunded" counts as done, so a retried refund finishes. */
export const refundStars = async (config: StarsConfig, userId: number, chargeId: string): Promise<'refunded' | 'already'> => {
  const api = apiOf(config);
  try {
    await api.refundStarPayment(userId, chargeId);
    return 'refunded';
  } catch (err) {
    if (/CHARGE_ALREADY_REFUNDED/.test(telegramRefusal(err) ?? '')) return 'already';
    throw fault(err);
  }
};

/** One of the bot's Star transactions as the reconciliation reads it. */
export interface StarTransactionSeen {
  id: string;
  amount: number;
  /** An incoming payment from a user (source), or a refund to one (receiver). */
  direction: 'in' | 'refund' | 'other';
  payload: string | null;
}

/** getStarTransactions from `offset`, at most 100. */
export const starTransactions = async (config: StarsConfig, offset: number, limit = 100): Promise<StarTransactionSeen[]> => {
  const api = apiOf(config);
  try {
    const r = await api.getStarTransactions({ offset, limit });
    return r.transactions.map((t) => {
      const source = t.source as { type?: string; invoice_payload?: string } | undefined;
      const receiver = t.receiver as { type?: string } | undefined;
      const direction = source?.type === 'user' ? 'in' : receiver?.type === 'user' ? 'refund' : 'other';
      return { id: t.id, amount: t.amount, direction, payload: source?.invoice_payload ?? null };
    });
  } catch (err) {
    throw fault(err);
  }
};
