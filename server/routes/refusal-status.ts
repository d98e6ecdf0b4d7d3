/**
 * The edge's one table from a refusal's code to its HTTP status (docs/api.md "Errors"). Features
 * refuse by code (server/core/errors.ts); only this file and the error handler speak HTTP.
 * `Record<RefusalCode, …>` makes a new code in engine/refusals.ts a type error here until it has
 * a status.
 */
import type { RefusalCode } from '../../engine/refusals.ts';

export const statusOfCode: Record<RefusalCode, number> = {
  // The edge: schemas, bodies, the database, unexpected faults.
  requiredParameter: 400,
  unknownParameter: 400,
  bodyNotObject: 400,
  invalidParameter: 400,
  invalidJson: 400,
  // The framework's own 4xx (413, 415) keep the framework's status; 400 when it gives none.
  requestRefused: 400,
  textNotStorable: 400,
  databaseAway: 503,
  overloaded: 503,
  internalError: 500,
  noRoute: 404,
  malformedUrl: 400,

  initDataMissing: 401,
  initDataTooLong: 401,
  initDataNotQueryString: 401,
  initDataNoHash: 401,
  initDataForged: 401,
  initDataNoAuthDate: 401,
  initDataExpired: 401,
  initDataFromFuture: 401,
  initDataNoUser: 401,
  initDataNoUserId: 401,
  authorizationRequired: 401,
  // 423, not 403: the mini-app's engine retries a 403 (stale init data) and would credit the taps
  // queued while frozen after an unfreeze; a 423 is final (docs/admin.md).
  frozen: 423,
  userNotFound: 404,

  upgradeAtMaxLevel: 400,
  upgradeLocked: 400,
  upgradeUnaffordable: 400,
  upgradeNotApplied: 409,
  unknownLevelKey: 400,
  refLevelAtMax: 400,
  refLevelNotNext: 400,
  refLevelUnaffordable: 400,
  rewardAlreadyClaimed: 409,
  forecastAlreadySubmitted: 409,
  languageNotOffered: 400,

  dailyStreakClaimed: 409,
  dailyCipherSolved: 409,
  dailyCipherLimit: 429,

  refcodeNotFound: 404,
  ownRefcode: 400,
  referrerAlreadySet: 409,
  referralCycle: 400,
  friendLimitReached: 409,

  taskNotFound: 404,
  taskIdMismatch: 400,
  adsClaimedByWatching: 400,
  achievementLocked: 400,
  inviteMoreFriends: 400,
  usernameLacksMoney: 400,
  notEnoughBoosts: 400,
  taskAlreadyClaimed: 409,
  exchangeAccountTaken: 409,
  taskUnverifiable: 503,
  captchaMissing: 400,
  captchaFailed: 400,
  inputMissing: 400,
  exchangeNotRegistered: 400,
  outsideServiceUnavailable: 503,

  adsDailyLimit: 409,
  adsUnconfigured: 503,
  noAdsTask: 503,
  notAnAdsTask: 400,
  adTokenMalformed: 400,
  adTokenExpired: 400,
  adTokenInvalid: 400,
  adTokenForeign: 403,
  adTokenUsed: 409,
  adsgramUnconfigured: 503,
  adsgramWrongKey: 403,
  adsgramBadUserId: 400,

  redirectNotAllowed: 400,
  xLoginStateInvalid: 400,

  walletAddressInvalid: 400,
  walletNotMainnet: 400,
  stateInitIncomplete: 400,
  stateInitAddressMismatch: 400,
  stateInitNotBoc: 400,
  walletUnsupported: 400,
  walletNoPublicKey: 400,
  publicKeyMismatch: 400,
  proofWrongDomain: 400,
  proofDomainLength: 400,
  proofExpired: 400,
  proofFromFuture: 400,
  proofSignatureMalformed: 400,
  proofSignatureInvalid: 400,
  proofPayloadSpent: 409,
  walletAlreadyLinked: 409,
  unlinkWalletFirst: 409,
  walletLinkedElsewhere: 409,
  walletLinkRaced: 409,

  notATonAddress: 400,
  noAirdropSnapshot: 404,
  notInAirdrop: 404,
  airdropLoading: 503,
  roundNotFound: 404,
  noEligiblePlayer: 409,
  roundStartFromDiffers: 409,
  roundExpireAtDiffers: 409,
  roundDatesDiffer: 409,
  expireBeforeStart: 400,
  expireInPast: 400,

  launchDayFormat: 400,
  launchDayNotCalendar: 400,
  launchDayInFuture: 400,
  launchDaySet: 409,

  dailyDayFormat: 400,
  dailyDayBegun: 400,
  dailyDayTooFar: 400,
  dailyComboCards: 400,
  dailyCipherWord: 400,
  dailyPuzzleEmpty: 400,

  operatorApiUnconfigured: 503,
  wrongApiKey: 401,
  broadcastsUnconfigured: 503,
  broadcastNotFound: 404,
  broadcastFinished: 409,
  wrongWebhookSecret: 401,
  notATelegramUpdate: 400,
  broadcastMessageRequired: 400,
  broadcastMessageTooLong: 400,
  broadcastMessageNul: 400,
  broadcastButtonsNotList: 400,
  broadcastTooManyButtons: 400,
  broadcastButtonType: 400,
  broadcastButtonText: 400,
  broadcastWebAppLink: 400,
  broadcastButtonLink: 400,
  segmentLanguageCode: 400,
  segmentDays: 400,
  segmentUserIds: 400,
  segmentKind: 400,

  crossSiteRefused: 403,
  foreignOrigin: 403,
  signInRequired: 401,
  sessionNotFound: 401,
  sessionExpired: 401,
  notAnAdmin: 403,
  csrfMissing: 403,
  // Refused when the console is registered, before any request: the server does not start.
  consoleNeedsBotToken: 500,
  initDataRequired: 400,
  widgetHashMalformed: 401,
  widgetFieldMalformed: 401,
  widgetSignatureMismatch: 401,
  widgetNoAuthDate: 401,
  widgetExpired: 401,
  widgetIdMalformed: 401,
  playerNotFound: 404,
  taskFormInvalid: 400,
  // A ledger invariant: a bug if it is ever thrown, answered as internalError and logged.
  negativeCredit: 500,

  devNotTelegramUserId: 400,
  devUserNotNumeric: 400,
  devAdvanceMs: 400,
  devNoAdminIds: 404,
};

/** Seconds a client should wait before retrying while the database is away (docs/faults.md). */
export const dbRetryAfterS = 1;

/** Seconds a client should wait before asking again, for the 503s that can tell (docs/faults.md). */
export const retryAfterOfCode: Partial<Record<RefusalCode, number>> = {
  databaseAway: dbRetryAfterS,
  airdropLoading: 10,
};

/** The body's `error`: the status's reason phrase. */
export const reasonOfStatus: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  423: 'Locked',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};
