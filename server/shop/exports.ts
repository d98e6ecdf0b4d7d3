/** What the shop feature offers the routes and the other features: they import it from here and nowhere else (docs/architecture.md, "Server layout"). */
export { shopFor, updateShopItem, listItems } from './catalog.ts';
export type { ItemEdit, ShopItem } from './catalog.ts';
export { approveCheckout, createOrder, creditPayment, orderOf } from './orders.ts';
export type { CreditOutcome, PreCheckout, SuccessfulPayment } from './orders.ts';
export { refundOrder, refundUnmatchedPayment } from './refunds.ts';
export type { RefundResult } from './refunds.ts';
export { revenueByDay } from './revenue.ts';
export type { RevenueDay } from './revenue.ts';
export { reconcileStars, reconciliationFlags, starsReconcileJob } from './reconcile.ts';
export { listOrders, unmatchedPayments } from './console.ts';
export { shopSettings } from './settings.ts';
