import type {
  AdsRewardPayload,
  CipherGuessPayload,
  CipherGuessResult,
  ClaimTaskPayload,
  DailyClaimResult,
  FriendEntry,
  FriendsPage,
  LanguagePayload,
  LeaderboardEntry,
  Page,
  PreparedInvite,
  RemindersPayload,
  SocialConnect,
  Task,
  TaskType,
  UserStatus,
  WalletInfo,
  WalletLinkPayload,
} from '../../../engine/wire/api-types.ts';
import { economy } from '../../../engine/rules/economy.ts';
import type { ShopOrderState, ShopOrderView, ShopView } from '../../../engine/rules/shop.ts';
import { required, type ApiClient } from './client.ts';

/** The §7 calls the mini-app makes outside the engine (which owns the status, /click, /claim, /update-level). */

/** Remembers the language chosen on the profile card (docs/i18n.md); answers the status with it. */
export const setLanguage = (api: ApiClient, language: LanguagePayload['language']) =>
  api.request<UserStatus>('/language', { method: 'POST', body: { language } satisfies LanguagePayload });

export const getTasks = (api: ApiClient, type: TaskType) =>
  api.request<Task[]>('/tasks', { query: { type: required(type, 'type', 'getTasks') } });

export const checkTask = (api: ApiClient, body: ClaimTaskPayload) =>
  api.request<{ boostChannelCnt: number }>('/check-task', { method: 'POST', body: required(body, 'body', 'checkTask') });

export const claimTask = (api: ApiClient, taskId: number, body: ClaimTaskPayload) =>
  api.request<unknown>('/claim-task', {
    method: 'POST',
    query: { task_id: required(taskId, 'task_id', 'claimTask') },
    body: required(body, 'body', 'claimTask'),
  });

/** The daily loop (docs/rules.md §15): today's streak reward, a cipher guess, the reminders switch. */
export const claimDailyStreak = (api: ApiClient) => api.request<DailyClaimResult>('/daily/streak', { method: 'POST' });

export const guessDailyCipher = (api: ApiClient, word: string) =>
  api.request<CipherGuessResult>('/daily/cipher', { method: 'POST', body: { word: required(word, 'word', 'guessDailyCipher') } satisfies CipherGuessPayload });

export const setReminders = (api: ApiClient, on: boolean) =>
  api.request<UserStatus>('/daily/reminders', { method: 'POST', body: { on } satisfies RemindersPayload });

export const claimWelcome = (api: ApiClient) => api.request<UserStatus>('/claim-welcome-rw', { method: 'POST' });
export const claimEaster = (api: ApiClient) => api.request<UserStatus>('/claim-easter-egg-rw', { method: 'POST' });

export const updateRefLevel = (api: ApiClient, level: number) =>
  api.request<unknown>('/update-ref-level', { method: 'POST', query: { level: required(level, 'level', 'updateRefLevel') } });

/** The invite as a rich message the client shares with shareMessage (Bot API 8.0, docs/mini-app.md "Invite"). */
export const prepareInvite = (api: ApiClient) => api.request<PreparedInvite>('/invite/prepared', { method: 'POST' });

export const registerReferral = (api: ApiClient, refcode: string) =>
  api.request<unknown>('/referral', { method: 'POST', query: { refcode: required(refcode, 'refcode', 'referral') } });

/** Lists answer a `Page<T>`; an older server may answer a bare array, which we page on the client. */
const asPage = <T>(data: Page<T> | T[], page: number): Page<T> => {
  if (!Array.isArray(data)) return data;
  const start = (page - 1) * economy.pageSize;
  return { items: data.slice(start, start + economy.pageSize), page, pageSize: economy.pageSize, total: data.length };
};

/**
 * Friends, 10 a page; the server also counts the pending ones in `pending` and gives Total Bonus in
 * `totalBonus`, read with the page (an older server answers neither).
 */
export const getFriends = async (api: ApiClient, page: number): Promise<Page<FriendEntry> & Partial<Pick<FriendsPage, 'pending' | 'totalBonus'>>> =>
  asPage(await api.request<FriendsPage | FriendEntry[]>('/get-ref-users', { query: { page, pageSize: economy.pageSize } }), page);

export const getLeaderboard = async (api: ApiClient, page: number) =>
  asPage(await api.request<Page<LeaderboardEntry> | LeaderboardEntry[]>('/leaderboard', { query: { page, pageSize: economy.pageSize } }), page);

/** The referral link: text, a JSON string, or `{ refLink }`/`{ link }`. */
export const getRefLink = async (api: ApiClient): Promise<string> => {
  const data = await api.request<string | { refLink?: string; link?: string }>('/get-my-refLink');
  if (typeof data === 'string') return data;
  return data?.refLink ?? data?.link ?? '';
};

export const socialLogin = (api: ApiClient, redirectTo: string) =>
  api.request<{ authUrl: string }>('/social-login', { query: { redirect_to: required(redirectTo, 'redirect_to', 'socialLogin') } });

export const checkXConnect = (api: ApiClient) => api.request<SocialConnect>('/check-x-connect');

/** §7: the mini-app treats the answer as a string. */
export const startWatchAds = async (api: ApiClient): Promise<string> => {
  const data = await api.request<unknown>('/start-watch-ads');
  return typeof data === 'string' ? data : JSON.stringify(data);
};

export const claimAdsReward = (api: ApiClient, body: AdsRewardPayload) =>
  api.request<unknown>('/claim-ads-reward', { method: 'POST', body: required(body, 'body', 'claimAdsReward') });

export const setPredictWallet = (api: ApiClient, days: number | string) =>
  api.request<unknown>('/set-predict-wallet-coming', { method: 'POST', query: { days: required(days, 'days', 'setPredictWalletComing') } });

/** The TON wallet and the airdrop allocation (docs/airdrop.md). */
export const getWallet = (api: ApiClient) => api.request<WalletInfo>('/wallet');
export const getTonProofPayload = (api: ApiClient) => api.request<{ payload: string }>('/wallet/ton-proof-payload', { method: 'POST' });
export const linkTonWallet = (api: ApiClient, body: WalletLinkPayload) =>
  api.request<WalletInfo>('/wallet/link', { method: 'POST', body: required(body, 'body', 'linkWallet') });
export const unlinkTonWallet = (api: ApiClient) => api.request<WalletInfo>('/wallet/unlink', { method: 'POST' });

/** The Stars shop (docs/shop.md): its items, a new order with its invoice link, an order's state. */
export const getShop = (api: ApiClient) => api.request<ShopView>('/shop');
export const createShopOrder = (api: ApiClient, itemId: string) => api.request<ShopOrderView>('/shop/orders', { method: 'POST', body: { itemId } });
export const getShopOrder = (api: ApiClient, orderId: string) => api.request<ShopOrderState>(`/shop/orders/${encodeURIComponent(orderId)}`);
