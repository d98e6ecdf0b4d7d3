import { messages, type MessageKey } from './messages.ts';
import type { UpgradeRefusal } from '../rules/upgrades.ts';

/** What a frozen player is told: the server's 423 on a click, claim or purchase (refusal code `frozen`), and the mini-app's banner. */
export const frozenPlayerMessage = 'Your account is frozen: taps, claims and purchases are paused. Contact support in the community.';

/**
 * Every refusal the server can answer, by its stable code (docs/api.md "Errors"): the one home of
 * the codes and of the English each one is sent with. The body of a refusal is
 * `{ error, message, field?, code }`; clients switch on `code`, never on the English `message`,
 * and the mini-app shows a player refusal as `app.refusal.<code>` in the player's language
 * (docs/i18n.md "Refusals"). The HTTP status of a code is the edge's business (server/routes/refusal-status.ts).
 *
 * `text` is the English word for word, typos included; `{name}` marks a value filled in where the
 * refusal is made (`refusalMessage`). A field name is always `{field}`, the same as the body's
 * `field`, so a catalog entry may show it; other values (a price, a task id) stay in the English
 * text only, and the translations say the same thing without them.
 *
 * `audience: 'player'` marks a refusal that a call the mini-app makes can answer (the player API
 * under /money/api/v1/airdrop with Telegram init data, and X's browser redirect): each has an
 * entry in all nine app catalogs, and tests/i18n/refusals.test.ts fails when one is missing.
 * `'operator'` ones answer the console, the operator API, partners (Adsgram, Telegram's webhook,
 * TEP-176 wallets) or the development stand-ins, which speak English only (docs/decisions/i18n.md).
 */
export type RefusalAudience = 'player' | 'operator';

export interface RefusalEntry {
  /** The English message, word for word; `{name}` is a value filled in by `refusalMessage`. */
  readonly text: string;
  readonly audience: RefusalAudience;
  /** The app catalog id when it is not `app.refusal.<code>`: a §8 message (`app.msg.*`) or the frozen notice. */
  readonly catalogId?: string;
}

const player = (text: string): RefusalEntry => ({ text, audience: 'player' });
const operator = (text: string): RefusalEntry => ({ text, audience: 'operator' });
/** A refusal whose text is a §8 message: the player reads it as that message (`app.msg.<key>`). */
const said = (key: MessageKey): RefusalEntry => ({ text: messages[key], audience: 'player', catalogId: `app.msg.${key}` });

export const refusals = {
  // --- The edge (server/routes/error-handler.ts): schemas, bodies, the database away, unexpected faults.
  requiredParameter: player('Required parameter "{field}" is missing'),
  unknownParameter: player('Unknown parameter "{field}"'),
  bodyNotObject: player('Request body must be a JSON object'),
  /** `rule` is the schema validator's own English ("must be <= 100000"). */
  invalidParameter: player('Parameter "{field}" {rule}'),
  invalidJson: player('Request body is not valid JSON'),
  /** Any other 4xx of the framework (413 too large, 415 media type): `detail` is Fastify's English. */
  requestRefused: player('{detail}'),
  textNotStorable: player('Text contains characters that cannot be stored'),
  databaseAway: player('The game is reconnecting to its database, please try again in a moment'),
  /**
   * The database's answer to a commit was lost (docs/api.md "Errors"): the change may be stored or
   * not. 503 with Retry-After like databaseAway; a click batch is resent with the same batchId.
   */
  outcomeUnknown: player('The game could not confirm whether this was saved, please check and try again in a moment'),
  /** The server sheds load before its event loop drowns (docs/faults.md "Overload"): 503 with Retry-After, resent like databaseAway. */
  overloaded: player('The game is very busy right now, please try again in a moment'),
  internalError: said('somethingWrong'),
  noRoute: player('No route {method} {path}'),
  /** The document server (server/web), not the API. */
  malformedUrl: operator('Malformed URL'),
  /** GET /metrics with WORKERS=N when a worker did not answer the merge in time (docs/operations.md). */
  metricsNotMerged: operator("The workers' metrics could not be merged; try again"),

  // --- Telegram init data (server/auth): 401 on every player call.
  initDataMissing: player('Authorization header with Telegram init data is required'),
  initDataTooLong: player('Init data is too long'),
  initDataNotQueryString: player('Init data is not a query string'),
  initDataNoHash: player('Init data has no valid hash'),
  initDataForged: player('Init data signature is invalid'),
  initDataNoAuthDate: player('Init data has no valid auth_date'),
  initDataExpired: player('Init data has expired, reopen the app'),
  initDataFromFuture: player('Init data auth_date is in the future'),
  initDataNoUser: player('Init data has no valid user'),
  initDataNoUserId: player('Init data has no valid user id'),
  authorizationRequired: player('Authorization required'),
  /** 423 on every call but a read while an operator has frozen the player (docs/admin.md). */
  frozen: { text: frozenPlayerMessage, audience: 'player', catalogId: 'app.frozen.message' },
  userNotFound: player('User not found'),

  // --- Upgrades, rewards, the forecast, the language (§5, §7).
  upgradeAtMaxLevel: player('This upgrade is already at its maximum level'),
  upgradeLocked: player('This item is locked: upgrade the previous item first'),
  upgradeUnaffordable: player('Not enough money for this upgrade'),
  upgradeNotApplied: player('The upgrade could not be applied, please try again'),
  unknownLevelKey: player('Unknown levelKey'),
  refLevelAtMax: player('Referral level is already at its maximum'),
  refLevelNotNext: player('level must be the next referral level, {level}'),
  refLevelUnaffordable: player('Not enough MONEY: level {level} costs {price}'),
  rewardAlreadyClaimed: said('easterAlreadyClaimed'),
  forecastAlreadySubmitted: player('You have already submitted your forecast'),
  languageNotOffered: player('language must be one of {locales} or null'),

  // --- The daily loop (docs/rules.md §15): the streak, the cipher.
  dailyStreakClaimed: player('Today’s reward is already claimed, come back tomorrow'),
  dailyCipherSolved: player('You have already solved today’s cipher'),
  dailyCipherLimit: player('No guesses left today, come back tomorrow'),

  // --- The Stars shop (docs/shop.md): orders, and the bot's pre-checkout answer in the player's language.
  shopItemNotFound: player('Shop item {itemId} not found'),
  shopItemOff: player('This item is not on sale right now'),
  shopDailyLimit: player('You have bought this item {limit} times today, come back tomorrow'),
  shopOrderNotFound: player('Order {orderId} not found'),
  shopOrderGone: player('This order has expired, open the shop and buy again'),
  shopOrderPaid: player('This order is already paid'),
  shopUnavailable: player('The shop is not available right now, please try again later'),

  // --- Referrals (§5).
  refcodeNotFound: player('Referral code not found'),
  ownRefcode: player('You cannot use your own referral code'),
  referrerAlreadySet: player('You already have a referrer'),
  referralCycle: player('This referral would make a cycle'),
  friendLimitReached: player('This player has reached their friend limit'),

  // --- Tasks and their checks (§4, §5, docs/outside-services.md).
  taskNotFound: player('Task {taskId} not found'),
  taskIdMismatch: player('taskId in the body differs from task_id'),
  adsClaimedByWatching: player('Ads rewards are claimed by watching a video'),
  achievementLocked: player('This achievement is still locked'),
  inviteMoreFriends: player('Invite more friends to claim this task'),
  usernameLacksMoney: said('usernameClaimFailed'),
  notEnoughBoosts: said('boostClaimFailed'),
  taskAlreadyClaimed: player('Task already claimed'),
  exchangeAccountTaken: player('This account id was already used by another player'),
  taskUnverifiable: player('This task cannot be verified right now, please try again later!'),
  captchaMissing: said('verifyCaptcha'),
  captchaFailed: player('Captcha verification failed'),
  inputMissing: said('fillInput'),
  exchangeNotRegistered: said('exchangeCheckFailed'),
  /** An outside service (Telegram, X, Turnstile, an exchange) is unconfigured, down or slow: 503, fail closed. */
  outsideServiceUnavailable: player('The {service} check is unavailable right now, please try again later'),

  // --- Ads (§7 /start-watch-ads, /claim-ads-reward).
  adsDailyLimit: player('You have watched {count} videos today'),
  /** No ADS_TOKEN_SECRET: the server log names the setting (server/routes/tasks.ts), never the player's message. */
  adsUnconfigured: player('Ads are not available right now, please try again later'),
  noAdsTask: player('There is no active ads task'),
  notAnAdsTask: player('Task {taskId} is not an ads task'),
  adTokenMalformed: player('encryptData must be base64 of the token from /start-watch-ads'),
  adTokenExpired: player('The ad token has expired'),
  adTokenInvalid: player('The ad token is not valid'),
  adTokenForeign: player('The ad token belongs to another player'),
  adTokenUsed: player('This ad token was already used'),
  adsgramUnconfigured: operator('The Adsgram callback is not configured (ADSGRAM_CALLBACK_KEY is empty)'),
  adsgramWrongKey: operator('Wrong or missing key'),
  adsgramBadUserId: operator('userid is not a Telegram user id'),

  // --- The X account (§7 /social-login, /callback/twitter).
  redirectNotAllowed: player('redirect_to is not an allowed URL'),
  xLoginStateInvalid: player('The login link is invalid, expired or already used; start again'),

  // --- The TON wallet link (docs/airdrop.md): the ton_proof checks, then the link itself.
  walletAddressInvalid: player('address must be a TON address, raw <workchain>:<64 hex>, workchain 0 (only basechain wallets can be linked)'),
  walletNotMainnet: player('the wallet must be on TON mainnet (-239)'),
  stateInitIncomplete: player('walletStateInit must have code and data'),
  stateInitAddressMismatch: player('address does not match walletStateInit'),
  stateInitNotBoc: player('walletStateInit must be a base64 BoC of a StateInit'),
  walletUnsupported: player('unsupported wallet; supported: {versions}'),
  walletNoPublicKey: player('the wallet data cell has no public key'),
  publicKeyMismatch: player('publicKey does not match walletStateInit'),
  proofWrongDomain: player('proof is for domain "{domain}", expected "{expected}"'),
  proofDomainLength: player('proof.domain.lengthBytes does not match its value'),
  proofExpired: player('proof has expired; connect the wallet again'),
  proofFromFuture: player('proof timestamp is in the future'),
  proofSignatureMalformed: player('proof.signature must be 64 bytes, base64'),
  proofSignatureInvalid: player('proof signature does not verify with the wallet’s public key'),
  proofPayloadSpent: player('proof.payload was not issued to you, has expired or was already used; connect the wallet again'),
  walletAlreadyLinked: player('this wallet is already linked'),
  unlinkWalletFirst: player('unlink your current wallet first'),
  walletLinkedElsewhere: player('this wallet is linked to another player'),
  walletLinkRaced: player('the wallet link changed meanwhile; connect the wallet again'),

  // --- The airdrop: TEP-176 wallets (public, no auth) and the operator's rounds.
  notATonAddress: operator('address must be a TON address, raw <workchain>:<64 hex> or user-friendly (48 base64 characters), workchain 0 or -1'),
  noAirdropSnapshot: operator('No airdrop snapshot yet'),
  notInAirdrop: operator('{address} is not in the airdrop'),
  airdropLoading: operator('the airdrop dictionary is loading; retry shortly'),
  roundNotFound: operator('Round {round} not found'),
  noEligiblePlayer: operator('no eligible player: nobody with a linked wallet and MONEY above 0'),
  roundStartFromDiffers: operator('round {round} was built with startFrom {startFrom}'),
  roundExpireAtDiffers: operator('round {round} was built with expireAt {expireAt}'),
  roundDatesDiffer: operator('round {round} is built with other dates'),
  expireBeforeStart: operator('expireAt must be after startFrom'),
  excludedMoneyDiffers: operator('round {round} was built with excludedMoney {excludedMoney}'),

  // --- The airdrop's integrity review (docs/airdrop.md "Integrity review"): the operators' list and decisions.
  flagsCursorInvalid: operator('cursor must be the nextCursor a previous page of this list answered'),
  nothingToAppeal: operator('Player {id} is neither under review nor excluded: there is no appeal to decide'),
  expireInPast: operator('expireAt must be in the future (now is {now} unix s)'),

  // --- The forecast settlement (operator API).
  launchDayFormat: operator('launchDay must be a date YYYY-MM-DD'),
  launchDayNotCalendar: operator('launchDay is not a calendar date'),
  launchDayInFuture: operator('launchDay must not be in the future'),
  launchDaySet: operator('The launch day is already set to {day}'),

  // --- The daily loop's console (docs/admin.md "Daily"): coming days' combo and cipher.
  dailyDayFormat: operator('{field} must be a date YYYY-MM-DD'),
  dailyDayBegun: operator('{field} {day} has begun: only coming days can be set'),
  dailyDayTooFar: operator('{field} must be within {max} days from today'),
  dailyComboCards: operator('{field} must be {count} different passive cards, keys {first}–{last}'),
  dailyCipherWord: operator('{field} must be 1–{max} letters A–Z'),
  dailyPuzzleEmpty: operator('set combo, cipher or both'),

  // --- The operator API, the broadcast API and Telegram's webhook.
  operatorApiUnconfigured: operator('The operator API is not configured (OPERATOR_API_KEY is empty)'),
  wrongApiKey: operator('Wrong x-api-key'),
  broadcastsUnconfigured: operator('Broadcasts are not configured (BROADCAST_API_KEY is empty)'),
  broadcastNotFound: operator('Broadcast {id} not found'),
  broadcastFinished: operator('Broadcast {id} has already finished'),
  broadcastAlreadyCancelled: operator('Broadcast {id} was already cancelled'),
  wrongWebhookSecret: operator('Wrong secret token'),
  notATelegramUpdate: operator('Not a Telegram update'),
  broadcastMessageRequired: operator('message is required'),
  broadcastMessageTooLong: operator('message is longer than {max} characters'),
  broadcastMessageNul: operator('message must not contain NUL characters'),
  broadcastButtonsNotList: operator('btns must be a list'),
  broadcastTooManyButtons: operator('at most {max} buttons'),
  broadcastButtonType: operator('btnType must be url or web_app'),
  broadcastButtonText: operator('btnText must be 1–{max} characters'),
  broadcastWebAppLink: operator('btnLink must be an https URL'),
  broadcastButtonLink: operator('btnLink must be an https, http or tg URL'),
  segmentLanguageCode: operator('languageCode must be a language code such as en or pt-br'),
  segmentDays: operator('days must be a whole number from 1 to {max}'),
  segmentUserIds: operator('userIds must list 1–{max} Telegram user ids'),
  segmentKind: operator('kind must be all, language, active or test'),
  segmentFieldOfOtherKind: operator('{field} is not a field of a {kind} segment'),

  // --- The console (docs/admin.md): sessions, sign-in, players, tasks.
  crossSiteRefused: operator('Cross-site request refused'),
  foreignOrigin: operator('Cross-site request refused: Origin is missing or foreign'),
  signInRequired: operator('Sign in to the console'),
  sessionNotFound: operator('Session not found: sign in again'),
  sessionExpired: operator('Session expired: sign in again'),
  notAnAdmin: operator('This Telegram account is not an admin'),
  csrfMissing: operator('Missing or wrong {header} header'),
  consoleNeedsBotToken: operator('The console needs BOT_TOKEN'),
  initDataRequired: operator('initData is required'),
  widgetHashMalformed: operator('hash is missing or malformed'),
  widgetFieldMalformed: operator('field {key} is malformed'),
  widgetSignatureMismatch: operator('Telegram signature does not match'),
  widgetNoAuthDate: operator('auth_date is missing'),
  widgetExpired: operator('Sign-in data has expired: sign in again'),
  widgetIdMalformed: operator('id is malformed'),
  playerNotFound: operator('Player {id} not found'),
  /** A task form with bad fields: `{field}: {problem}` for the first, every one in the body's `fields`. */
  taskFormInvalid: operator('{field}: {problem}'),
  /** A ledger invariant, not a rule a request can break: a bug if it is ever sent. */
  negativeCredit: operator('a credit must not be negative'),

  // --- The shop's console (docs/shop.md "Console"): the catalog, refunds.
  shopItemInvalid: operator('Shop item {field}: {problem}'),
  shopRefundNotPaid: operator('Order {orderId} is {state}: only a paid order can be refunded'),
  starPaymentNotFound: operator('Payment {chargeId} not found'),

  // --- Development stand-ins (server/dev): never registered in production.
  devNotTelegramUserId: operator('{field} must be a Telegram user id'),
  devUserNotNumeric: operator('user must be a numeric id'),
  devAdvanceMs: operator('advanceMs must be a non-negative integer'),
  devNoAdminIds: operator('ADMIN_IDS is empty'),
} satisfies Record<string, RefusalEntry>;

export type RefusalCode = keyof typeof refusals;

export const refusalCodes = Object.keys(refusals) as RefusalCode[];

/** The codes a player can meet: each has an entry in all nine app catalogs. */
export const playerRefusalCodes: readonly RefusalCode[] = refusalCodes.filter((code) => refusals[code].audience === 'player');

export const isRefusalCode = (value: unknown): value is RefusalCode => typeof value === 'string' && Object.hasOwn(refusals, value);

/** The values a refusal's English names, e.g. `{ field: 'click' }`. */
export type RefusalValues = Readonly<Record<string, string | number>>;

/** The English a refusal is sent with, its `{name}`s filled in from `values` (one left unfilled stays as written). */
export const refusalMessage = (code: RefusalCode, values: RefusalValues = {}): string =>
  refusals[code].text.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));

/** The app catalog id a player reads a refusal under (docs/i18n.md "Refusals"). */
export const refusalCatalogId = (code: RefusalCode): string => refusals[code].catalogId ?? `app.refusal.${code}`;

/** The `{name}`s of a refusal's English. */
export const refusalValueNames = (code: RefusalCode): string[] => [...refusals[code].text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

/** The code of each refusal of `upgradeRefusal` (engine/rules/upgrades.ts), which client and server share. */
export const upgradeRefusalCode: Record<UpgradeRefusal, RefusalCode> = {
  'max-level': 'upgradeAtMaxLevel',
  locked: 'upgradeLocked',
  unaffordable: 'upgradeUnaffordable',
};

/** A refusal as a client receives it: the server's English, and its code and field when it sent them. */
export interface Refusal {
  readonly message: string;
  readonly code?: RefusalCode;
  readonly field?: string;
}
