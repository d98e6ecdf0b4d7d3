/**
 * JSON schemas of the wire shapes (engine/api-types.ts). They serialise answers (fast-json-stringify
 * drops anything not listed) and feed the OpenAPI document.
 */
import type { RouteContext } from './route-context.ts';

const decimal = { type: 'string', pattern: '^-?[0-9]+(\\.[0-9]+)?$', description: 'exact decimal amount' } as const;

/** The field kinds of the wire shapes; `?` also allows null. */
const kinds = {
  string: { type: 'string' },
  'string?': { type: ['string', 'null'] },
  integer: { type: 'integer' },
  'integer?': { type: ['integer', 'null'] },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  decimal,
} as const;

/** An object schema whose properties are kinds (`'integer'`, `'decimal'`, …) or whole schemas, in wire order. */
export const objectOf = (properties: Record<string, keyof typeof kinds | object>) => ({
  type: 'object',
  properties: Object.fromEntries(Object.entries(properties).map(([key, p]) => [key, typeof p === 'string' ? kinds[p] : p])),
});

export const ageRewardSchema = {
  ...objectOf({ avgAge: 'number', teleReward: 'decimal', twReward: 'decimal', premiumReward: 'decimal', total: 'decimal' }),
  required: ['avgAge', 'teleReward', 'twReward', 'premiumReward', 'total'],
};

/** `daily` of the status (engine/api-types.ts DailyStatus): never the day's combo or word. */
export const dailyStatusSchema = {
  ...objectOf({
    day: 'string',
    nextDayAt: 'integer',
    streak: { ...objectOf({ days: 'integer', claimedToday: 'boolean', step: 'integer', reward: 'decimal' }), required: ['days', 'claimedToday', 'step', 'reward'] },
    combo: {
      ...objectOf({ found: { type: 'array', items: { type: 'integer' }, description: 'combo cards found today, in order found' }, complete: 'boolean', reward: 'decimal' }),
      required: ['found', 'complete', 'reward'],
    },
    cipher: { ...objectOf({ solved: 'boolean', guessesLeft: 'integer', reward: 'decimal' }), required: ['solved', 'guessesLeft', 'reward'] },
    reminders: 'boolean',
  }),
  required: ['day', 'nextDayAt', 'streak', 'combo', 'cipher', 'reminders'],
};

export const userStatusSchema = {
  $id: 'UserStatus',
  ...objectOf({
    id: 'string',
    refcode: 'string',
    refLevel: 'integer',
    inviteCnt: 'integer',
    teleUsername: 'string',
    teleAvatar: 'string?',
    teleAge: 'integer',
    twUsername: 'string?',
    twAvatar: 'string?',
    twAge: 'integer',
    isPremium: 'boolean',
    nextClaimTime: 'integer',
    lastClaimedTime: 'integer',
    totalEarn: 'decimal',
    totalMoney: 'decimal',
    totalRef: 'decimal',
    totalMoneyRef: 'decimal',
    totalClick: 'integer',
    passiveEarnLevel: { type: 'object', additionalProperties: { type: 'integer' } },
    fingerLevel: 'integer',
    energyLevel: 'integer',
    availableEnergy: 'integer',
    ageReward: ageRewardSchema,
    offlinePassiveReward: 'decimal',
    offlinePassiveRewardPerSecond: 'decimal',
    pendingClaimReward: 'decimal',
    pendingEasterReward: 'decimal',
    isClaimedWelcome: 'boolean',
    isClaimedEaster: 'boolean',
    preWlComing: 'integer',
    boostChannelCnt: 'integer',
    serverTime: 'integer',
    isFrozen: 'boolean',
    language: { type: ['string', 'null'], description: 'The locale chosen on the profile card (POST /language), null until chosen' },
    daily: dailyStatusSchema,
  }),
};

export const taskSchema = objectOf({
  id: 'integer',
  type: 'string',
  handleType: 'string?',
  title: 'string',
  image: 'string',
  desc: 'string',
  link: 'string',
  reward: 'decimal',
  isDaily: 'boolean',
  hasDone: 'boolean',
  numberOfDone: 'integer',
  needsCaptcha: 'boolean',
});

export const friendSchema = objectOf({
  teleUsername: 'string',
  totalMoney: 'decimal',
  totalMoneyRef: 'decimal',
  totalEarn: 'decimal',
  earned: 'decimal',
  waitingFor: { type: 'array', items: { type: 'string', enum: ['clicks', 'channel'] }, description: 'what the invite bonus still waits for (§9)' },
});

/** POST /invite/prepared (engine/api-types.ts PreparedInvite). */
export const preparedInviteSchema = { ...objectOf({ id: 'string', expirationDate: 'integer' }), required: ['id', 'expirationDate'] };

export const leaderboardEntrySchema = objectOf({
  id: 'string',
  rank: 'integer',
  teleUsername: 'string',
  teleAvatar: 'string?',
  twUsername: 'string?',
  reward: 'decimal',
  totalEarn: 'decimal',
  totalMoney: 'decimal',
  totalRef: 'decimal',
});

export const pageOf = (item: object) => objectOf({ items: { type: 'array', items: item }, page: 'integer', pageSize: 'integer', total: 'integer' });

/** `{ message, status }`: the answer of purchases and one-off claims. */
export const messageStatusSchema = objectOf({ message: 'string', status: userStatusSchema });

export const errorSchema = objectOf({ error: 'string', message: 'string', field: 'string', code: 'string' });

export const decimalSchema = decimal;

/** Error answers every route documents. */
export const errorResponses = { 400: errorSchema, 401: errorSchema, 404: errorSchema, 409: errorSchema } as const;

/** Player routes authenticate with Telegram init data (the OpenAPI security scheme telegramInitData). */
export const playerSecurity = [{ telegramInitData: [] }];

/**
 * The options of a player route: init-data authentication (before validation, so a call without
 * it is a 401) and its OpenAPI schema under `tag`.
 */
export const playerRoute =
  (ctx: Pick<RouteContext, 'authenticate'>) =>
  (tag: string, summary: string, schema: Record<string, unknown> = {}) => ({
    onRequest: ctx.authenticate,
    schema: { summary, tags: [tag], security: playerSecurity, ...schema },
  });
