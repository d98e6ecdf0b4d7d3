import type { FastifyInstance } from 'fastify';
import type { Clock, ManualClock } from '../core/clock.ts';
import { demoUser, launchUrl } from './launch-url.ts';
import { refuse } from '../core/errors.ts';

/** A clock that runs with real time plus an offset tests can move forward (TEST_MODE launches). */
export const offsetClock = (base: Clock = { now: () => Date.now() }): ManualClock => {
  let offsetMs = 0;
  return {
    now: () => base.now() + offsetMs,
    advance: (ms) => {
      offsetMs += ms;
    },
    set: (ms) => {
      offsetMs = ms - base.now();
    },
  };
};

/** Where tests move the server's clock (TEST_MODE only). */
export const testClockPath = '/money/api/test/clock';

/**
 * GET /dev/launch → a freshly signed launch URL for a demo user (or ?user=<id>&username=…&start=<refcode>).
 * The redirect is relative, so it works on whatever origin the browser reached us by.
 * Only registered with a development token: with the real BOT_TOKEN it would let anyone sign in as anyone.
 */
export const registerDevLaunch = (app: FastifyInstance, opts: { botToken: string; clock: Clock }): void => {
  app.get<{ Querystring: { user?: string; username?: string; start?: string; premium?: string } }>('/dev/launch', (req, reply) => {
    const { user, username, start, premium } = req.query;
    if (user !== undefined && !/^\d{1,15}$/.test(user)) throw refuse('devUserNotNumeric', { field: 'user' });
    const id = user !== undefined ? Number(user) : demoUser.id;
    const url = launchUrl({
      publicUrl: '',
      botToken: opts.botToken,
      nowMs: opts.clock.now(),
      user: id === demoUser.id ? demoUser : { id, first_name: username ?? `Player ${id}`, username: username ?? `player_${id}`, language_code: 'en', is_premium: premium === '1' },
      ...(start ? { startParam: start } : {}),
    });
    return reply.header('cache-control', 'no-store').redirect(url, 302);
  });
};

/** POST testClockPath `{ advanceMs }` moves the clock forward; GET reads it. TEST_MODE only. */
export const registerTestClock = (app: FastifyInstance, clock: ManualClock): void => {
  app.get(testClockPath, () => ({ now: clock.now() }));
  app.post<{ Body: { advanceMs?: unknown } }>(testClockPath, (req) => {
    const ms = req.body?.advanceMs;
    if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 0) throw refuse('devAdvanceMs', { field: 'advanceMs' });
    clock.advance(ms);
    return { now: clock.now() };
  });
};
