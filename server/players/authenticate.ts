import { randomInt } from 'node:crypto';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { economy } from '../../engine/rules/economy.ts';
import { maxEnergy } from '../../engine/rules/energy.ts';
import { refcodeFrom } from '../../engine/rules/refcodes.ts';
import { BoundedMap } from '../core/bounded-map.ts';
import type { Clock } from '../core/clock.ts';
import type { CoreConfig } from '../core/config/config.ts';
import type { Db } from '../core/db/db.ts';
import { frozenPlayerMessage } from '../../engine/wire/admin-types.ts';
import type { FrozenSet } from './frozen-set.ts';
import { refuse } from '../core/errors.ts';
import { initDataFromHeader, initDataSecret, verifyInitData, type TelegramUser, type VerifiedInitData } from './init-data.ts';
import { teleAgeDays } from './tele-age.ts';

/** The authenticated player of a request: the user id comes only from verified init data. */
export interface Player {
  id: number;
  initData: VerifiedInitData;
}

declare module 'fastify' {
  interface FastifyRequest {
    player?: Player;
  }
}

/** The player of an authenticated route (the authenticate hook ran). */
export const playerOf = (request: FastifyRequest): Player => {
  if (request.player === undefined) throw refuse('authorizationRequired');
  return request.player;
};

const displayName = (u: TelegramUser): string => [u.first_name, u.last_name].filter((s) => s !== undefined && s !== '').join(' ');

/** What the profile columns should say, as one string: a change updates the row. */
const profileKey = (u: TelegramUser): string => JSON.stringify([u.username ?? '', displayName(u), u.photo_url ?? null, u.is_premium === true]);

const refcodeRetries = 8;

/**
 * Creates the player on their first valid call (unique 6-character refcode, teleAge from the id
 * table, Premium from init data) and keeps the profile columns current on later calls.
 */
export const ensureUser = async (db: Db, u: TelegramUser, nowMs: number): Promise<void> => {
  const teleUsername = u.username ?? displayName(u);
  // A plain read first: the upsert would wait on the row lock of a click group in flight.
  const seen = await db.query<{ tele_username: string; tele_name: string; tele_avatar: string | null; is_premium: boolean }>(
    'SELECT tele_username, tele_name, tele_avatar, is_premium FROM users WHERE id = $1',
    [u.id],
  );
  const row = seen.rows[0];
  if (row !== undefined && row.tele_username === teleUsername && row.tele_name === displayName(u) && row.tele_avatar === (u.photo_url ?? null) && row.is_premium === (u.is_premium === true))
    return;
  for (let attempt = 0; ; attempt++) {
    const refcode = refcodeFrom(Array.from({ length: economy.refcodeLength }, () => randomInt(0, 1 << 30)));
    try {
      await db.query(
        `INSERT INTO users (id, refcode, tele_username, tele_name, tele_avatar, tele_age, is_premium,
                            finger_level, energy_level, energy, energy_at_ms, tap_clock_ms, last_claimed_ms, created_at_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $11, $11)
         ON CONFLICT (id) DO UPDATE SET tele_username = EXCLUDED.tele_username, tele_name = EXCLUDED.tele_name,
           tele_avatar = EXCLUDED.tele_avatar, is_premium = EXCLUDED.is_premium`,
        [
          u.id, refcode, teleUsername, displayName(u), u.photo_url ?? null, teleAgeDays(u.id, nowMs), u.is_premium === true,
          economy.startingFingerLevel, economy.startingEnergyLevel, maxEnergy(economy.startingEnergyLevel), nowMs,
        ],
      );
      return;
    } catch (err) {
      // 23505 on users_refcode_key: another player has this refcode; draw again.
      const e = err as { code?: string; constraint?: string; message?: string };
      const refcodeClash = e.code === '23505' && (e.constraint === 'users_refcode_key' || /refcode/.test(e.message ?? ''));
      if (!refcodeClash || attempt >= refcodeRetries) throw err;
    }
  }
};

export interface AuthDeps {
  db: Db;
  config: Pick<CoreConfig, 'BOT_TOKEN' | 'INIT_DATA_MAX_AGE_S'>;
  clock: Clock;
  /** Frozen players: every call but a read is refused (docs/admin.md "Freeze"). */
  frozen?: FrozenSet;
}

/** What a frozen player is told when a click, claim or purchase is refused (the mini-app shows it too). */
export const frozenMessage = frozenPlayerMessage;

const dayOf = (ms: number) => Math.floor(ms / 86_400_000);

/** Verified init data and what its profile columns should say (profileKey), kept together. */
interface Session {
  data: VerifiedInitData;
  profile: string;
}

/**
 * The onRequest hook of every authenticated route: Telegram init data in `Authorization` (raw or
 * `tma <raw>`), checked in constant time; any failure refuses with its initData* code.
 */
export const createAuthenticate = (deps: AuthDeps) => {
  if (deps.config.BOT_TOKEN === undefined) throw new Error('createApp needs config.BOT_TOKEN to check Telegram init data');
  const secret = initDataSecret(deps.config.BOT_TOKEN);
  const maxAgeS = deps.config.INIT_DATA_MAX_AGE_S;
  // Verified init data by raw string, with its profile key: the HMAC runs once per session, not once per request.
  const verified = new BoundedMap<string, Session>(50_000);
  // Players whose row exists with this profile: the upsert runs once per process and profile.
  const known = new BoundedMap<number, string>(200_000);
  // The UTC day each player was last marked active by this process: one write per player per day.
  const active = new BoundedMap<number, number>(200_000);
  const expired = (s: Session, nowMs: number) => Math.floor(nowMs / 1_000) - s.data.authDate > maxAgeS;

  /** Checks init data and brings the player's row up to date; refuses init data that fails the check. */
  const settle = async (raw: string | undefined, nowMs: number): Promise<Session> => {
    let session = raw === undefined ? undefined : verified.get(raw);
    if (session !== undefined && expired(session, nowMs)) session = undefined;
    if (session === undefined) {
      const check = verifyInitData(raw, secret, nowMs, maxAgeS);
      if (!check.ok) throw refuse(check.code);
      session = { data: check.data, profile: profileKey(check.data.user) };
      verified.set(raw!, session);
    }
    const { user } = session.data;
    if (known.get(user.id) !== session.profile) {
      await ensureUser(deps.db, user, nowMs);
      known.set(user.id, session.profile);
    }
    if (active.get(user.id) !== dayOf(nowMs)) {
      // Last active day and Telegram language for the console (dashboard, broadcast segments).
      await deps.db.query('UPDATE users SET last_active_ms = $2, language_code = $3 WHERE id = $1', [user.id, nowMs, user.language_code ?? null]);
      active.set(user.id, dayOf(nowMs));
    }
    return session;
  };

  /** Lets the request through, or refuses a frozen player's change (`frozen`: final, so taps made while frozen are dropped). */
  const admit = (request: FastifyRequest, session: Session): void => {
    const id = session.data.user.id;
    if (request.method !== 'GET' && deps.frozen?.has(id) === true) throw refuse('frozen');
    request.player = { id, initData: session.data };
  };

  // A callback hook: a player's usual call (init data seen, row current, active today) has nothing
  // to wait for and goes on without a promise; the others wait for `settle`.
  return function authenticate(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const nowMs = deps.clock.now();
    const raw = initDataFromHeader(request.headers.authorization);
    const seen = raw === undefined ? undefined : verified.get(raw);
    if (seen !== undefined && !expired(seen, nowMs)) {
      const id = seen.data.user.id;
      if (known.get(id) === seen.profile && active.get(id) === dayOf(nowMs)) {
        try {
          admit(request, seen);
        } catch (err) {
          done(err as Error);
          return;
        }
        done();
        return;
      }
    }
    settle(raw, nowMs)
      .then((session) => admit(request, session))
      .then(() => done(), done);
  };
};

export type Authenticate = ReturnType<typeof createAuthenticate>;
