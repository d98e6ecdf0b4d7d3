/**
 * JSON schemas of the wire shapes (engine/api-types.ts). They serialise answers (fast-json-stringify
 * drops anything not listed) and feed the OpenAPI document.
 */
const decimal = { type: 'string', pattern: '^-?[0-9]+(\\.[0-9]+)?$', description: 'exact decimal amount' } as const;
const nullableString = { type: ['string', 'null'] } as const;

export const ageRewardSchema = {
  type: 'object',
  required: ['avgAge', 'teleReward', 'twReward', 'premiumReward', 'total'],
  properties: { avgAge: { type: 'number' }, teleReward: decimal, twReward: decimal, premiumReward: decimal, total: decimal },
} as const;

export const userStatusSchema = {
  $id: 'UserStatus',
  type: 'object',
  properties: {
    id: { type: 'string' },
    refcode: { type: 'string' },
    refLevel: { type: 'integer' },
    inviteCnt: { type: 'integer' },
    teleUsername: { type: 'string' },
    teleAvatar: nullableString,
    teleAge: { type: 'integer' },
    twUsername: nullableString,
    twAvatar: nullableString,
    twAge: { type: 'integer' },
    isPremium: { type: 'boolean' },
    nextClaimTime: { type: 'integer' },
    lastClaimedTime: { type: 'integer' },
    totalEarn: decimal,
    totalMoney: decimal,
    totalRef: decimal,
    totalMoneyRef: decimal,
    totalClick: { type: 'integer' },
    passiveEarnLevel: { type: 'object', additionalProperties: { type: 'integer' } },
    fingerLevel: { type: 'integer' },
    energyLevel: { type: 'integer' },
    availableEnergy: { type: 'integer' },
    ageReward: ageRewardSchema,
    offlinePassiveReward: decimal,
    offlinePassiveRewardPerSecond: decimal,
    pendingClaimReward: decimal,
    pendingEasterReward: decimal,
    isClaimedWelcome: { type: 'boolean' },
    isClaimedEaster: { type: 'boolean' },
    preWlComing: { type: 'integer' },
    boostChannelCnt: { type: 'integer' },
    serverTime: { type: 'integer' },
    isFrozen: { type: 'boolean' },
    language: { ...nullableString, description: 'The locale chosen on the profile card (POST /language), null until chosen' },
  },
} as const;

export const taskSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    type: { type: 'string' },
    handleType: nullableString,
    title: { type: 'string' },
    image: { type: 'string' },
    desc: { type: 'string' },
    link: { type: 'string' },
    reward: decimal,
    isDaily: { type: 'boolean' },
    hasDone: { type: 'boolean' },
    numberOfDone: { type: 'integer' },
    needsCaptcha: { type: 'boolean' },
  },
} as const;

export const friendSchema = {
  type: 'object',
  properties: {
    teleUsername: { type: 'string' },
    totalMoney: decimal,
    totalMoneyRef: decimal,
    totalEarn: decimal,
    earned: decimal,
    waitingFor: { type: 'array', items: { type: 'string', enum: ['clicks', 'channel'] }, description: 'what the invite bonus still waits for (§9)' },
  },
} as const;

export const leaderboardEntrySchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    rank: { type: 'integer' },
    teleUsername: { type: 'string' },
    teleAvatar: nullableString,
    twUsername: nullableString,
    reward: decimal,
    totalEarn: decimal,
    totalMoney: decimal,
    totalRef: decimal,
  },
} as const;

export const pageOf = (item: object) =>
  ({
    type: 'object',
    properties: { items: { type: 'array', items: item }, page: { type: 'integer' }, pageSize: { type: 'integer' }, total: { type: 'integer' } },
  }) as const;

/** `{ message, status }`: the answer of purchases and one-off claims. */
export const messageStatusSchema = {
  type: 'object',
  properties: { message: { type: 'string' }, status: userStatusSchema },
} as const;

export const errorSchema = {
  type: 'object',
  properties: { error: { type: 'string' }, message: { type: 'string' }, field: { type: 'string' } },
} as const;

export const decimalSchema = decimal;

/** Error answers every route documents. */
export const errorResponses = { 400: errorSchema, 401: errorSchema, 404: errorSchema, 409: errorSchema } as const;
