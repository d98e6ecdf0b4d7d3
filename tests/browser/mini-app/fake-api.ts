import type { DailyStatus, FriendEntry, LeaderboardEntry, Task, TaskType, UserStatus, WalletInfo } from '../../../engine/wire/api-types.ts';
import { streakRewardMoney, streakStep } from '../../../engine/rules/daily.ts';
import seed from '../../../server/tasks/seed-tasks.json';
import { verifyOutside } from '../../../server/tasks/task-evidence.ts';
import { rowOfSeed, taskFileSchema, taskTypesOf, taskView, type TaskRow } from '../../../server/tasks/task-model.ts';
import { Refusal } from '../../../server/core/errors.ts';
import { reasonOfStatus, statusOfCode } from '../../../server/routes/refusal-status.ts';
import type { OutsideServices } from '../../../server/tasks/task-evidence.ts';
import { apiPrefix, demoPaths } from '../../../engine/wire/api-types.ts';
import { economy, type BoostKey } from '../../../engine/rules/economy.ts';
import { isLocale } from '../../../engine/rules/i18n/locales.ts';
import { money, toWire } from '../../../engine/rules/money.ts';
import { priceOf } from '../../../engine/rules/prices.ts';
import { refusalMessage, upgradeRefusalCode, type RefusalCode } from '../../../engine/wire/refusals.ts';
import { boostLevel, isBoostKey, upgradeRefusal } from '../../../engine/rules/upgrades.ts';

/**
 * A small fake of the HTTP API (spec §7) at the network boundary, for component tests and the
 * screenshot script: it answers `fetch(url, init)` from in-memory state. It is not our server,
 * but it cannot disagree with it where a disagreement once hid bugs: its tasks are the server's
 * seed (server/tasks/seed-tasks.json) through the server's own task model, lists cover the same types,
 * and claims pass the server's own outside checks (captcha with the claim-task action, exchange
 * id). It uses the engine's rules where it has to judge (prices, refusals) and records every call.
 */
export interface FakeApiState {
  status: UserStatus;
  /** Every task, as the server would list it (see demoTasks). */
  tasks: Task[];
  friends: FriendEntry[];
  leaderboard: LeaderboardEntry[];
  refLink: string;
  /**
   * Paths (after the prefix) that answer this HTTP status, fail at the network when 'network', or
   * answer a refusal by its code as the server does (docs/api.md "Errors").
   */
  failures: Record<string, number | 'network' | FakeRefusal>;
  /** Paths that never answer (to show skeletons). */
  hang: string[];
  calls: { method: string; path: string; query: Record<string, string>; body: unknown; auth: string | null }[];
  checkTaskBoostCount: number;
  adsToken: string;
  /** The site key the server expects the Turnstile widget to be drawn with. */
  turnstileSiteKey: string;
  /** Tokens the (stand-in) widget yielded: what it was drawn with, and whether siteverify saw it. */
  captchas: Map<string, { sitekey: string; action: string; spent: boolean }>;
  /** Exchange ids registered through our link. */
  exchangeIds: Set<string>;
  /** GET /wallet (the TON wallet card); POST /wallet/unlink clears the address. */
  wallet: WalletInfo;
  /** Today's combo and cipher word: the server's secrets, never in an answer (docs/rules.md §15). */
  comboOfDay: number[];
  cipherWord: string;
}

/** A refusal the fake answers: its status, code and field; the English comes from engine/wire/refusals.ts. */
export interface FakeRefusal {
  status: number;
  code: RefusalCode;
  field?: string;
}

/** A player on the 4th day of a streak, one combo card found (Coin Jar), the cipher unsolved. */
export const demoDaily = (over: Partial<DailyStatus> = {}): DailyStatus => ({
  day: '2026-01-15',
  nextDayAt: Date.now() + 5 * 3_600_000 + 12 * 60_000 + 33_000,
  streak: { days: 3, claimedToday: false, step: 4, reward: String(streakRewardMoney(4)) },
  combo: { found: [5], complete: false, reward: String(economy.dailyComboRewardMoney) },
  cipher: { solved: false, guessesLeft: economy.dailyCipherGuessesPerDay, reward: String(economy.dailyCipherRewardMoney) },
  reminders: true,
  ...over,
});

export const demoStatus = (over: Partial<UserStatus> = {}): UserStatus => ({
  id: '5001',
  refcode: 'Ab3dE9',
  refLevel: 2,
  inviteCnt: 7,
  teleUsername: 'satoshi_fan',
  teleAvatar: null,
  teleAge: 2_190,
  twUsername: 'satoshifan',
  twAvatar: null,
  twAge: 1_460,
  isPremium: true,
  nextClaimTime: 0,
  lastClaimedTime: 0,
  totalEarn: '18250.50',
  totalMoney: '4375.25',
  totalRef: '21',
  totalMoneyRef: '312.40',
  totalClick: 5_230,
  passiveEarnLevel: { 3: 2, 4: 6, 5: 5, 6: 1 },
  fingerLevel: 3,
  energyLevel: 2,
  availableEnergy: 742,
  ageReward: { avgAge: 1_825, teleReward: '2190', twReward: '1460', premiumReward: '500', total: '4150' },
  offlinePassiveReward: '0',
  offlinePassiveRewardPerSecond: '0',
  pendingClaimReward: '0',
  pendingEasterReward: '777',
  isClaimedWelcome: true,
  isClaimedEaster: false,
  preWlComing: 0,
  boostChannelCnt: 0,
  serverTime: 0,
  airdropReview: { state: 'clear', reasons: [] },
  daily: demoDaily(),
  ...over,
});

/** The server's seeded tasks as rows (the same parse and mapping as seedTasks). */
export const seededRows = (): TaskRow[] => taskFileSchema.parse(seed).tasks.filter((t) => t.active).map(rowOfSeed);

/**
 * The seeded tasks with some progress for the demo player (5 230 taps, 7 invites): the channel
 * joined, 3 ads watched today, 4 boosts, the first achievement claimed.
 */
export const demoTasks = (progress: Record<number, Partial<Pick<Task, 'hasDone' | 'numberOfDone'>>> = { 2: { hasDone: true, numberOfDone: 1 }, 5: { numberOfDone: 3 }, 7: { numberOfDone: 4 }, 31: { hasDone: true, numberOfDone: 1 } }): Task[] =>
  seededRows().map((row) => taskView(row, { hasDone: false, numberOfDone: 0, ...progress[row.id] }));

/** The demo's tasks with one changed (test setup). */
export const withTask = (tasks: Task[], id: number, change: Partial<Task>): Task[] => tasks.map((t) => (t.id === id ? { ...t, ...change } : t));

const names = ['whale_watcher', 'tonny', 'coin_queen', 'hodl_hank', 'moonboi', 'degen_dave', 'lucky_lu', 'mr_pump', 'cashflow', 'gm_anon', 'tapmaster', 'rich_rita'];

export const demoFriends = (count = 14): FriendEntry[] =>
  Array.from({ length: count }, (_, i) => ({
    teleUsername: names[i % names.length]! + (i >= names.length ? `_${i}` : ''),
    totalMoney: String(1_000 + i * 137),
    totalMoneyRef: (i * 4.5).toFixed(2),
    totalEarn: i % 4 === 3 ? '42.10' : String(250 + i * 1_310),
    // What the player earned from this friend: the +3 once they pass $100, plus 5% shares.
    earned: i % 4 === 3 ? '0' : (3 + i * 0.25).toFixed(2),
  }));

export const demoLeaderboard = (me: UserStatus, count = 23): LeaderboardEntry[] => [
  { id: me.id, rank: 12, teleUsername: me.teleUsername, teleAvatar: null, twUsername: me.twUsername, reward: '0', totalEarn: me.totalEarn, totalMoney: me.totalMoney, totalRef: me.totalRef },
  ...Array.from({ length: count }, (_, i) => ({
    id: String(9000 + i),
    rank: i + 1,
    teleUsername: names[i % names.length]! + (i >= names.length ? i : ''),
    teleAvatar: null,
    twUsername: i % 3 === 0 ? names[i % names.length]! : null,
    reward: '0',
    totalEarn: String(10_000_000 - i * 380_000),
    totalMoney: String(2_500_000 - i * 91_000),
    totalRef: '0',
  })),
];

export const createFakeState = (over: Partial<FakeApiState> = {}): FakeApiState => {
  const status = over.status ?? demoStatus();
  // Passive income accrues from lastClaimedTime: start the demo "just claimed".
  if (status.lastClaimedTime === 0) status.lastClaimedTime = Date.now();
  return {
    status,
    tasks: demoTasks(),
    friends: demoFriends(),
    leaderboard: demoLeaderboard(status),
    refLink: 'https://t.me/money_clicker_bot/app?startapp=Ab3dE9',
    failures: {},
    hang: [],
    calls: [],
    checkTaskBoostCount: 5,
    adsToken: 'ads-token-1',
    turnstileSiteKey: '0x4AAAAAAAfake-site-key',
    captchas: new Map(),
    exchangeIds: new Set(['12345']),
    wallet: { address: null, friendlyAddress: null, allocation: null },
    comboOfDay: [5, 7, 9],
    cipherWord: 'MONEY',
    ...over,
  };
};

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const error = (status: number, message: string, field?: string) => json({ error: 'Bad Request', message, field }, status);
const refuse = ({ status, code, field }: FakeRefusal) =>
  json({ error: 'Bad Request', message: refusalMessage(code, field === undefined ? {} : { field }), ...(field === undefined ? {} : { field }), code }, status);

/** Runs the server's outside checks: their refusal as the server would answer it, or `then()`. */
const outside = async <T>(check: () => Promise<unknown>, then: () => T): Promise<T | Response> => {
  try {
    await check();
  } catch (err) {
    if (err instanceof Refusal) {
      const status = statusOfCode[err.code];
      return json({ error: reasonOfStatus[status], message: err.message, ...(err.field === undefined ? {} : { field: err.field }), code: err.code }, status);
    }
    throw err;
  }
  return then();
};

const page = <T>(items: T[], query: Record<string, string>) => {
  const p = Number(query.page ?? 1);
  const size = economy.pageSize;
  return { items: items.slice((p - 1) * size, p * size), page: p, pageSize: size, total: items.length };
};

/** The stand-in widget's solve call (server/dev/stand-ins/turnstile-widget.ts) and the demo's route. */
export const turnstileSolvePath = demoPaths.turnstileSolve;

/** Siteverify and the exchanges as the server's services see them, over the fake's state. */
const servicesOf = (state: FakeApiState): OutsideServices => ({
  verifyCaptcha: async (token, action) => {
    const c = state.captchas.get(token);
    if (!c || c.spent) return false;
    c.spent = true;
    return c.sitekey === state.turnstileSiteKey && c.action === action;
  },
  checkExchange: async (_handle, uid) => state.exchangeIds.has(uid),
  countChannelBoosts: async () => state.checkTaskBoostCount,
});

const rowOf = (t: Task): TaskRow => ({
  id: t.id, type: t.type, handle_type: t.handleType, title: t.title, titles: t.titles, image: t.image, description: t.desc,
  link: t.link, reward: t.reward, is_daily: t.isDaily, needs_captcha: t.needsCaptcha,
});

/** Answers one request from the state; `url` may be absolute or a path. */
export const answer = async (state: FakeApiState, url: string, init: RequestInit = {}): Promise<Response> => {
  const parsed = new URL(url, 'http://fake.local');
  if (parsed.pathname === turnstileSolvePath) {
    const w = JSON.parse(String(init.body)) as { sitekey: string; action: string };
    if (w.sitekey !== state.turnstileSiteKey) return error(400, 'unknown site key', 'sitekey');
    const token = `0.fake-${state.captchas.size + 1}`;
    state.captchas.set(token, { sitekey: w.sitekey, action: w.action, spent: false });
    return json({ token });
  }
  const path = parsed.pathname.slice(parsed.pathname.indexOf(apiPrefix) + apiPrefix.length);
  const query = Object.fromEntries(parsed.searchParams);
  const method = (init.method ?? 'GET').toUpperCase();
  const body: unknown = typeof init.body === 'string' && init.body ? JSON.parse(init.body) : undefined;
  const headers = new Headers(init.headers);
  state.calls.push({ method, path, query, body, auth: headers.get('Authorization') });
  if (state.hang.includes(path)) return new Promise<Response>(() => undefined);
  const failure = state.failures[path];
  if (failure === 'network') throw new TypeError('Failed to fetch');
  if (typeof failure === 'object') return refuse(failure);
  if (failure) return error(failure, 'Something broke');
  const s = state.status;
  s.serverTime = Date.now();
  switch (`${method} ${path}`) {
    case 'GET ':
    case 'GET /':
      return json(s);
    case 'GET /tasks': {
      const types = taskTypesOf(query.type as TaskType);
      return json(state.tasks.filter((t) => types.includes(t.type)));
    }
    case 'GET /get-ref-users':
      return json({
        ...page(state.friends, query),
        pending: state.friends.filter((f) => money(f.totalEarn).lt(100)).length,
        totalBonus: toWire(money(state.status.totalRef).plus(state.status.totalMoneyRef)),
      });
    case 'GET /leaderboard':
      return json(page(state.leaderboard, query));
    case 'GET /get-my-refLink':
      return json({ refLink: state.refLink });
    case 'POST /invite/prepared':
      // The server's answer once the Bot API prepared the message (savePreparedInlineMessage).
      return json({ id: `prep-${s.refcode}`, expirationDate: Math.floor(Date.now() / 1000) + 86_400 });
    case 'GET /start-watch-ads':
      return new Response(state.adsToken, { status: 200 });
    case 'POST /claim-ads-reward': {
      const ads = state.tasks.find((t) => t.type === 'ADS');
      if (ads) ads.numberOfDone += 1;
      return json({ ok: true });
    }
    case 'POST /check-task': {
      const t = state.tasks.find((x) => x.id === (body as { taskId: number }).taskId);
      if (!t) return error(404, 'No such task', 'taskId');
      return outside(() => verifyOutside({ ...rowOf(t), needs_captcha: false }, 0, body as object, servicesOf(state)), () => json({ boostChannelCnt: state.checkTaskBoostCount }));
    }
    case 'POST /claim-task': {
      const id = Number(query.task_id);
      const t = state.tasks.find((x) => x.id === id);
      if (!t) return error(404, 'No such task', 'task_id');
      const refused = await outside(() => verifyOutside(rowOf(t), 0, (body ?? {}) as object, servicesOf(state)), () => null);
      if (refused) return refused;
      t.hasDone = true;
      s.totalMoney = toWire(money(s.totalMoney).plus(t.reward));
      return json({ ok: true });
    }
    case 'POST /claim-welcome-rw':
      s.isClaimedWelcome = true;
      s.totalMoney = toWire(money(s.totalMoney).plus(s.ageReward.total));
      return json(s);
    case 'POST /claim-easter-egg-rw':
      if (s.isClaimedEaster) return error(409, 'Already claimed');
      s.isClaimedEaster = true;
      s.totalMoney = toWire(money(s.totalMoney).plus(s.pendingEasterReward));
      // As the server answers: nothing pending once claimed (server/players/users.ts statusOf).
      s.pendingEasterReward = '0';
      return json(s);
    case 'POST /update-ref-level':
      s.refLevel = Number(query.level);
      return json(s);
    case 'GET /social-login':
      if (!query.redirect_to) return error(400, 'redirect_to is required', 'redirect_to');
      return json({ authUrl: `https://x.com/i/oauth2/authorize?state=s1&redirect_uri=${encodeURIComponent(query.redirect_to)}` });
    case 'GET /check-x-connect':
      s.twUsername = 'new_x_name';
      s.twAge = 900;
      return json({ twUsername: s.twUsername, twAge: s.twAge, twAvatar: null, pendingClaimReward: '0' });
    case 'POST /referral':
      return json({ ok: true });
    case 'GET /wallet':
      return json(state.wallet);
    // The ton_proof payload the wallet signs (the server's is a random 32 bytes, hex).
    case 'POST /wallet/ton-proof-payload':
      return json({ payload: 'ab'.repeat(32) });
    case 'POST /wallet/unlink':
      state.wallet = { ...state.wallet, address: null, friendlyAddress: null };
      return json(state.wallet);
    case 'POST /language': {
      // As server/routes/players.ts: one of the nine locales, or null; anything else changes nothing.
      const { language } = (body ?? {}) as { language?: unknown };
      if (language !== null && !isLocale(language)) return error(400, 'language must be one of the locales', 'language');
      s.language = language;
      return json(s);
    }
    case 'POST /set-predict-wallet-coming':
      s.preWlComing = Number(query.days);
      return json({ ok: true });
    case 'POST /click': {
      const { click, batchId } = body as { click: number; batchId: string };
      const accepted = Math.max(0, Math.min(click, s.availableEnergy));
      s.availableEnergy -= accepted;
      s.totalClick += accepted;
      s.totalEarn = toWire(money(s.totalEarn).plus(accepted * s.fingerLevel));
      return json({ batchId, accepted, status: s });
    }
    case 'POST /claim': {
      // As the server does: the offline reward goes into the balance and the claim time moves on.
      const claimed = s.offlinePassiveReward;
      s.totalEarn = toWire(money(s.totalEarn).plus(claimed));
      s.offlinePassiveReward = '0';
      s.lastClaimedTime = Date.now();
      return json({ claimed, status: s });
    }
    case 'POST /update-level': {
      const key = (body as { levelKey: number }).levelKey;
      if (!isBoostKey(key)) return error(400, 'levelKey must be 1 to 21', 'levelKey');
      const owned = { fingerLevel: s.fingerLevel, energyLevel: s.energyLevel, passiveEarnLevel: s.passiveEarnLevel };
      const refusal = upgradeRefusal(key as BoostKey, owned, s.totalEarn, '0');
      if (refusal) return refuse({ status: 400, code: upgradeRefusalCode[refusal], field: 'levelKey' });
      const level = boostLevel(owned, key as BoostKey);
      s.totalEarn = toWire(money(s.totalEarn).minus(priceOf(key as BoostKey, level)));
      if (key === 1) s.fingerLevel += 1;
      else if (key === 2) s.energyLevel += 1;
      else s.passiveEarnLevel = { ...s.passiveEarnLevel, [key]: level + 1 };
      // The day's combo (docs/rules.md §15.2): a combo card is found once, the third pays.
      const combo = s.daily?.combo;
      if (combo && state.comboOfDay.includes(key) && !combo.found.includes(key)) {
        combo.found = [...combo.found, key];
        combo.complete = combo.found.length === economy.dailyComboCards;
        if (combo.complete) s.totalMoney = toWire(money(s.totalMoney).plus(combo.reward));
      }
      return json(s);
    }
    case 'POST /daily/streak': {
      const streak = s.daily!.streak;
      if (streak.claimedToday) return refuse({ status: 409, code: 'dailyStreakClaimed' });
      const claimed = streak.reward;
      s.daily!.streak = { ...streak, days: streak.days + 1, claimedToday: true, step: streakStep(streak.days + 1), reward: String(streakRewardMoney(streak.days + 1)) };
      s.totalMoney = toWire(money(s.totalMoney).plus(claimed));
      return json({ claimed, status: s });
    }
    case 'POST /daily/cipher': {
      const cipher = s.daily!.cipher;
      const { word } = (body ?? {}) as { word?: unknown };
      if (typeof word !== 'string' || !/^[A-Za-z]{1,12}$/.test(word)) return refuse({ status: 400, code: 'invalidParameter', field: 'word' });
      if (cipher.solved) return refuse({ status: 409, code: 'dailyCipherSolved', field: 'word' });
      if (cipher.guessesLeft === 0) return refuse({ status: 429, code: 'dailyCipherLimit', field: 'word' });
      const correct = word.toUpperCase() === state.cipherWord;
      s.daily!.cipher = correct ? { ...cipher, solved: true } : { ...cipher, guessesLeft: cipher.guessesLeft - 1 };
      if (correct) s.totalMoney = toWire(money(s.totalMoney).plus(cipher.reward));
      return json({ correct, claimed: correct ? cipher.reward : '0', status: s });
    }
    case 'POST /daily/reminders': {
      const { on } = (body ?? {}) as { on?: unknown };
      if (typeof on !== 'boolean') return refuse({ status: 400, code: 'invalidParameter', field: 'on' });
      s.daily!.reminders = on;
      return json(s);
    }
    default:
      return error(404, `No route ${method} ${path}`);
  }
};

/** A fetch function over the fake state. */
export const fakeFetch = (state: FakeApiState) => (input: string | URL | Request, init?: RequestInit) =>
  answer(state, typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, init);
