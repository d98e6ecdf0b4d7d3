/**
 * A click group whose commit may have happened is never answered "nothing changed"
 * (docs/api.md "Errors", docs/faults.md "An answer lost after the commit"). PostgreSQL only: a
 * proxy in front of it (./lost-commit-proxy.ts) lets the write through and loses its answer, so the
 * batch is stored while the server cannot know it. The answer is then the stored batch itself (the
 * retry reads it back) or `outcomeUnknown`, never `databaseAway`; a resend with the same batchId
 * credits the taps once.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClickResult, ErrorBody } from '../../engine/wire/api-types.ts';
import { loadConfig } from '../../server/background/settings.ts';
import { openDb, type Db } from '../../server/core/db/db.ts';
import { manualClock } from '../../server/core/clock.ts';
import { ledgerMatchesBalances, setBalances } from './db-helpers.ts';
import { harnessOn, startMs, testEnv, type Harness } from './harness.ts';
import { startLostCommitProxy, type LostCommitProxy } from './lost-commit-proxy.ts';

const databaseUrl = process.env.DATABASE_URL;

describe.skipIf(databaseUrl === undefined)('a click whose commit answer is lost (postgres)', () => {
  let proxy: LostCommitProxy;
  let h: Harness;
  /** The same schema straight, not through the proxy: what is really stored. */
  let direct: Db;

  beforeAll(async () => {
    proxy = await startLostCommitProxy(databaseUrl!);
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const config = loadConfig(testEnv('postgres', { DATABASE_URL: proxy.url }));
    // Short bounds so that a lost answer fails within ~1.5 s: statement 500 ms, the client's read 1.5 s.
    const db = await openDb(config, { schema, queryTimeoutMs: 500 });
    direct = await openDb({ DATABASE_URL: databaseUrl!, DATA_DIR: '' }, { schema, migrate: false, keepSchema: true });
    h = await harnessOn(db, config, manualClock(startMs));
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await direct?.close();
    await proxy?.close();
  });

  const stored = async (id: number) => {
    const r = await direct.query<{ total_click: number; batches: string }>(
      'SELECT u.total_click, (SELECT count(*) FROM click_batches b WHERE b.user_id = u.id)::text AS batches FROM users u WHERE u.id = $1',
      [id],
    );
    return r.rows[0]!;
  };
  const click = (id: number, n: number, batchId: string) => h.call('POST', '/click', id, { body: { click: n, batchId } });

  /** A player with one click stored, so their row is cached and the next batch goes straight to the write. */
  const warmPlayer = async (): Promise<number> => {
    const id = await h.newPlayer();
    h.clock.advance(10_000);
    expect((await click(id, 1, `warm-${id}`)).statusCode).toBe(200);
    h.clock.advance(10_000);
    return id;
  };

  it.each(['hold', 'reset'] as const)('every attempt loses its answer (%s): 503 outcomeUnknown, stored once, a resend answers it', async (mode) => {
    const id = await warmPlayer();
    const before = await stored(id);
    proxy.arm('click-group-write', 3, mode);
    const first = await click(id, 5, `lost-all-${mode}`);
    expect(proxy.lost).toBeGreaterThan(0);
    // The first attempt committed: the batch is stored, so the answer must not say "nothing changed".
    expect((await stored(id)).total_click).toBe(before.total_click + 5);
    expect(first.statusCode).toBe(503);
    expect(first.json<ErrorBody>().code).toBe('outcomeUnknown');
    expect(first.headers['retry-after']).toBe('1');

    proxy.arm('click-group-write', 0, mode);
    const again = await click(id, 5, `lost-all-${mode}`);
    expect(again.statusCode).toBe(200);
    expect(again.json<ClickResult>().accepted).toBe(5);
    // Credited once: the resend was a replay.
    expect(await stored(id)).toEqual({ total_click: before.total_click + 5, batches: String(Number(before.batches) + 1) });
    expect(await ledgerMatchesBalances(direct, [id])).toBe(true);
  });

  it('one lost answer: the retry finds the batch stored and answers it, credited once', async () => {
    const id = await warmPlayer();
    const before = await stored(id);
    proxy.arm('click-group-write', 1, 'hold');
    const r = await click(id, 7, 'lost-once');
    expect(proxy.lost).toBe(1);
    expect(r.statusCode).toBe(200);
    expect(r.json<ClickResult>().accepted).toBe(7);
    expect((await stored(id)).total_click).toBe(before.total_click + 7);
    expect(await ledgerMatchesBalances(direct, [id])).toBe(true);
  });

  it('the locked path: a COMMIT whose answer is lost is 503 outcomeUnknown, and a resend credits once', async () => {
    const [referrer, friend] = [await h.newPlayer(), await h.newPlayer()];
    const refcode = (await direct.query<{ refcode: string }>('SELECT refcode FROM users WHERE id = $1', [referrer])).rows[0]!.refcode;
    expect((await h.call('POST', '/referral', friend, { query: { refcode } })).statusCode).toBe(200);
    // Crossing $100 with a referrer goes through the locked transaction (docs/storage.md "Click groups").
    await setBalances(direct, friend, { totalEarn: '95' });
    h.clock.advance(10_000);
    const before = await stored(friend);
    proxy.arm('COMMIT', 1, 'hold');
    const first = await click(friend, 10, 'lost-commit');
    expect(proxy.lost).toBe(1);
    expect((await stored(friend)).total_click).toBe(before.total_click + 10);
    expect(first.statusCode).toBe(503);
    expect(first.json<ErrorBody>().code).toBe('outcomeUnknown');

    const again = await click(friend, 10, 'lost-commit');
    expect(again.statusCode).toBe(200);
    expect(again.json<ClickResult>().accepted).toBe(10);
    expect((await stored(friend)).total_click).toBe(before.total_click + 10);
    expect(await ledgerMatchesBalances(direct, [friend, referrer])).toBe(true);
  });

  it('a write PostgreSQL refused is still databaseAway: nothing was stored', async () => {
    const id = await warmPlayer();
    const before = await stored(id);
    // The statement is cancelled by PostgreSQL itself (an ERROR): it changed nothing.
    await direct.exec(`CREATE FUNCTION slow_click_for_test() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(2); RETURN NEW; END $$;
      CREATE TRIGGER slow_click_for_test BEFORE INSERT ON click_batches FOR EACH ROW EXECUTE FUNCTION slow_click_for_test();`);
    try {
      const r = await click(id, 4, 'refused');
      expect(r.statusCode).toBe(503);
      expect(r.json<ErrorBody>().code).toBe('databaseAway');
    } finally {
      await direct.exec('DROP TRIGGER slow_click_for_test ON click_batches; DROP FUNCTION slow_click_for_test();');
    }
    expect(await stored(id)).toEqual(before);
  });
});
