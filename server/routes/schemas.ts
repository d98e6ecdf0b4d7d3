/**
 * JSON schemas of the wire shapes (engine/wire/api-types.ts). They serialise answers (fast-json-stringify
 * drops anything not listed) and feed the OpenAPI document.
 */
import { airdropReasonCodes, airdropReviewStates } from '../../engine/wire/airdrop-review.ts';
import type { Page as KeysetPage } from '../../engine/wire/admin-types.ts';
import type { AgeReward, DailyStatus, DecimalString, ErrorBody, FriendEntry, LeaderboardEntry, Page, PreparedInvite, Task, UserStatus } from '../../engine/wire/api-types.ts';
import type { FastifyRequest } from 'fastify';
import { refusalCodes, type RefusalCode } from '../../engine/wire/refusals.ts';
import { refuse } from '../core/errors.ts';
import { secretMatches } from '../core/secret-compare.ts';
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

type Kind = keyof typeof kinds;

/** The values of each kind, as TypeScript types. */
interface KindTypes {
  string: string;
  'string?': string | null;
  integer: number;
  'integer?': number | null;
  number: number;
  boolean: boolean;
  decimal: DecimalString;
}

declare const wireType: unique symbol;

/**
 * A JSON schema of the wire type `T`. `T` lives in the type alone (no such property exists at run
 * time) and ties the schema to it exactly: tsc refuses a schema of one type for a field of another,
 * and `objectOf<T>()` refuses properties that are not exactly T's fields.
 */
export interface Schema<T> {
  readonly [wireType]?: (value: T) => T;
}

/** The kinds whose values are V's: `TaskType` fits `'string'`; `number | null` fits `'integer?'` and not `'integer'`, nor `number` `'integer?'`. */
type KindsFor<V> = { [K in Kind]: [V] extends [KindTypes[K]] ? ([null] extends [V] ? K : [null] extends [KindTypes[K]] ? never : K) : never }[Kind];

declare const itemKind: unique symbol;

/** An array of kind K (`arrayOf('integer')`): fits an array of any type K fits, as K fits the type. */
export interface KindArray<K extends Kind> {
  readonly [itemKind]?: K;
}

type KindArrayFor<V> = [V] extends [readonly (infer E)[]] ? KindArray<KindsFor<E>> : never;

/** What may describe a field of type V: a kind that fits it, a schema of exactly V, or for an array an array of a kind that fits its items. An optional field is omitted by the serializer when undefined. */
export type FieldOf<V> = KindsFor<Exclude<V, undefined>> | Schema<Exclude<V, undefined>> | KindArrayFor<Exclude<V, undefined>>;

/** An object schema of T. */
export type ObjectSchema<T> = Schema<T> & { type: 'object'; properties: Record<string, object> };

const schemaOf = <T>(schema: object): Schema<T> => schema as Schema<T>;

/**
 * The object schema of the wire type T (engine/wire/api-types.ts): its properties are kinds (`'integer'`,
 * `'decimal'`, …) or schemas, in wire order, one for every field of T, optional ones included, and
 * no other (the serializer drops a field its schema lacks); `required` lists the fields the
 * serializer insists on. `objectOf<UserStatus>()({ … })`.
 */
export const objectOf =
  <T>() =>
  <P extends { [K in keyof T]-?: FieldOf<T[K]> }>(properties: P & { [K in Exclude<keyof P, keyof T>]: never }, required?: readonly (keyof T & string)[]): ObjectSchema<T> =>
    ({
      type: 'object',
      properties: Object.fromEntries(Object.entries(properties as Record<string, Kind | object>).map(([key, p]) => [key, typeof p === 'string' ? kinds[p as Kind] : p])),
      ...(required === undefined ? {} : { required: [...required] }),
    }) as ObjectSchema<T>;

/** A field of kind `kind` with its description (OpenAPI). */
export const described = <K extends Kind>(kind: K, description: string): Schema<KindTypes[K]> => schemaOf({ ...kinds[kind], description });

/** A string field with one of `values`. */
export const enumOf = <const V extends string>(values: readonly V[]): Schema<V> => schemaOf({ type: 'string', enum: [...values] });

/** A string field with one of `values`, or null. */
export const nullableEnumOf = <const V extends string>(values: readonly V[]): Schema<V | null> => schemaOf({ type: ['string', 'null'], enum: [...values, null] });

/** An array of kinds or of schemas. */
export function arrayOf<K extends Kind>(items: K, description?: string): KindArray<K>;
export function arrayOf<T>(items: Schema<T>, description?: string): Schema<T[]>;
export function arrayOf(items: Kind | object, description?: string): object {
  return ({ type: 'array', items: typeof items === 'string' ? kinds[items as Kind] : items, ...(description === undefined ? {} : { description }) });
}

/** An object of any keys whose values are of kind `kind`. */
export const recordOf = <K extends Kind, Key extends string = string>(kind: K, description?: string): Schema<Record<Key, KindTypes[K]>> =>
  schemaOf({ type: 'object', additionalProperties: kinds[kind], ...(description === undefined ? {} : { description }) });

/** Any JSON value (an audit row's before and after): serialised as it is. */
export const anyValue: Schema<unknown> = schemaOf({});

/** An object of any keys whose values are numbers or strings, as they are (what a refund took back and could not). */
export const mixedRecord = (description: string): ObjectSchema<Record<string, number | string>> =>
  ({ type: 'object', properties: {}, additionalProperties: {}, description }) as unknown as ObjectSchema<Record<string, number | string>>;

/** An object T serialised as it is, every field kept: for an answer too nested to list (the test cron's report of every job). */
export const wholeObject = <T>(): Schema<T> => schemaOf({ type: 'object', additionalProperties: true });

/** Every field of any variant of the union U, each optional: the one object schema of a tagged union. */
type FieldsOfVariants<U> = { [K in U extends unknown ? keyof U : never]?: U extends { readonly [P in K]?: infer V } ? V : never };

/** The object schema of the tagged union U (`BroadcastSegment`): every variant's fields, exactly, as `objectOf` takes them. */
export const variantsOf =
  <U>() =>
  <P extends { [K in keyof FieldsOfVariants<U>]-?: FieldOf<FieldsOfVariants<U>[K]> }>(properties: P & { [K in Exclude<keyof P, keyof FieldsOfVariants<U>>]: never }, required?: readonly string[]): Schema<U> =>
    objectOf<FieldsOfVariants<U>>()(properties as never, required as never) as Schema<U>;

/** An object schema that also allows null. */
export const nullable = <T>(schema: ObjectSchema<T>): Schema<T | null> => schemaOf({ ...schema, type: [schema.type, 'null'] });

export const ageRewardSchema = {
  ...objectOf<AgeReward>()({ avgAge: 'number', teleReward: 'decimal', twReward: 'decimal', premiumReward: 'decimal', total: 'decimal' }),
  required: ['avgAge', 'teleReward', 'twReward', 'premiumReward', 'total'],
};

/** `daily` of the status (engine/wire/api-types.ts DailyStatus): never the day's combo or word. */
export const dailyStatusSchema = {
  ...objectOf<DailyStatus>()({
    day: 'string',
    nextDayAt: 'integer',
    streak: objectOf<DailyStatus['streak']>()({ days: 'integer', claimedToday: 'boolean', step: 'integer', reward: 'decimal' }, ['days', 'claimedToday', 'step', 'reward']),
    combo: objectOf<DailyStatus['combo']>()(
      { found: arrayOf('integer', 'combo cards found today, in order found'), complete: 'boolean', reward: 'decimal' },
      ['found', 'complete', 'reward'],
    ),
    cipher: objectOf<DailyStatus['cipher']>()({ solved: 'boolean', guessesLeft: 'integer', reward: 'decimal' }, ['solved', 'guessesLeft', 'reward']),
    reminders: 'boolean',
  }),
  required: ['day', 'nextDayAt', 'streak', 'combo', 'cipher', 'reminders'],
};

/** `airdropReview` of the status (engine/wire/airdrop-review.ts): the review's state and, unless clear, its reason codes. */
export const airdropReviewSchema = {
  ...objectOf<UserStatus['airdropReview']>()({
    state: enumOf(airdropReviewStates),
    reasons: arrayOf(enumOf(airdropReasonCodes), 'reason codes; empty when clear'),
  }),
  required: ['state', 'reasons'],
};

export const userStatusSchema = {
  $id: 'UserStatus',
  ...objectOf<UserStatus>()({
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
    passiveEarnLevel: recordOf('integer'),
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
    airdropReview: airdropReviewSchema,
    language: described('string?', 'The locale chosen on the profile card (POST /language), null until chosen'),
    daily: dailyStatusSchema,
    tapBoostUntil: described('integer', 'Epoch ms until which a bought double-tap stretch doubles the tap value (docs/shop.md); absent: none'),
  }),
};

export const taskSchema = objectOf<Task>()({
  id: 'integer',
  type: 'string',
  handleType: 'string?',
  title: 'string',
  titles: recordOf('string', 'The title in other languages, by locale; a language without one shows `title` (English)'),
  image: 'string',
  desc: 'string',
  link: 'string',
  reward: 'decimal',
  isDaily: 'boolean',
  hasDone: 'boolean',
  numberOfDone: 'integer',
  needsCaptcha: 'boolean',
});

export const friendSchema = objectOf<FriendEntry>()({
  teleUsername: 'string',
  totalMoney: 'decimal',
  totalMoneyRef: 'decimal',
  totalEarn: 'decimal',
  earned: 'decimal',
  waitingFor: arrayOf(enumOf(['clicks', 'channel']), 'what the invite bonus still waits for (§9)'),
});

/** POST /invite/prepared (engine/wire/api-types.ts PreparedInvite). */
export const preparedInviteSchema = { ...objectOf<PreparedInvite>()({ id: 'string', expirationDate: 'integer' }), required: ['id', 'expirationDate'] };

export const leaderboardEntrySchema = objectOf<LeaderboardEntry>()({
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

export const pageOf = <T>(item: Schema<T>): ObjectSchema<Page<T>> =>
  objectOf<Page<T>>()({ items: arrayOf(item) as FieldOf<T[]>, page: 'integer', pageSize: 'integer', total: 'integer' });

/** `{ error, message, field?, code }` (docs/api.md "Errors"): serialization drops what is not listed, so `code` is. */
// `fields` is left out: only the console's task form sends it, and no route with this schema does.
const errorFields = { error: 'string', message: 'string', field: 'string', code: enumOf(refusalCodes) } as const;
const errorRequired = ['error', 'message', 'code'] as const;
export const errorSchema = objectOf<Omit<ErrorBody, 'fields'>>()(errorFields, errorRequired);

export const decimalSchema = decimal;

/** A keyset page of the console (engine/wire/admin-types.ts Page): the items and the next page's cursor. */
export const keysetPageOf = <T>(item: Schema<T>): ObjectSchema<KeysetPage<T>> => objectOf<KeysetPage<T>>()({ items: arrayOf(item) as FieldOf<T[]>, next: 'string?' });

/** `{ items }`: a console list that is not paged. */
export const itemsOf = <T>(item: Schema<T>): ObjectSchema<{ items: T[] }> => objectOf<{ items: T[] }>()({ items: arrayOf(item) as FieldOf<T[]> });

/** The console's error body: as `errorSchema`, with `fields` (the task form names every bad field, docs/api.md "Errors"). */
const consoleErrorSchema = objectOf<ErrorBody>()({ ...errorFields, fields: recordOf('string', 'every bad field with its problem (the task form)') }, errorRequired);

/** The statuses every route documents with its error body (503: the database away, with Retry-After). */
const errorAnswers = <S>(body: S) => ({ 400: body, 401: body, 404: body, 409: body, 503: body }) as const;

/** Error answers every console route documents: as `errorResponses`, and 403 (a write without the session's CSRF token, or cross-site). */
export const consoleErrorResponses = { ...errorAnswers(consoleErrorSchema), 403: consoleErrorSchema } as const;

/** Error answers every route documents. */
export const errorResponses = errorAnswers(errorSchema);

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

/** The x-api-key header of the operator API and the broadcast API. */
export const apiKeyHeader = { type: 'object', properties: { 'x-api-key': { type: 'string', maxLength: 512 } }, required: ['x-api-key'] } as const;

/** `key` in x-api-key, compared in constant time; an empty key closes the API it guards (`unconfigured`). */
export const requireApiKey = (key: string | undefined, unconfigured: RefusalCode, request: FastifyRequest): void => {
  if (!key) throw refuse(unconfigured);
  if (!secretMatches(request.headers['x-api-key'], key)) throw refuse('wrongApiKey', { field: 'x-api-key' });
};

/**
 * The options of an operator API route (docs/api.md "Operator API"): OPERATOR_API_KEY in x-api-key,
 * checked once the input has passed its schema, and its OpenAPI schema tagged `operator` unless
 * `schema` names its tags.
 */
export const operatorRoute =
  (ctx: Pick<RouteContext, 'config'>) =>
  (summary: string, schema: Record<string, unknown> = {}) => ({
    preHandler: async (request: FastifyRequest) => requireApiKey(ctx.config.OPERATOR_API_KEY, 'operatorApiUnconfigured', request),
    schema: { summary, tags: ['operator'], headers: apiKeyHeader, ...schema },
  });
