/**
 * One door per operator action (docs/architecture.md "One door per action"): the forecast
 * settlement and the airdrop snapshot are one function each, called by the operator API and the
 * console alike. Each writes its audit row in its own transaction, so an action that fails leaves
 * no record, and both doors make the new airdrop round served at once.
 */
import { describe, expect, it } from 'vitest';
import { apiPrefix } from '../../engine/wire/api-types.ts';
import { adminId, openSignedInAdmin, operatorKey } from './admin-harness.ts';
import { withAuditRefused } from './db-helpers.ts';
import { backends, openForSuite, startMs } from './harness.ts';

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe.each(backends)('operator actions: one door, audited in their own transaction (%s)', (backend) => {
  const h = openForSuite(() => openSignedInAdmin(backend));
  const byKey = (method: 'GET' | 'POST', path: string, payload?: object) =>
    h.app.inject({ method, url: `${apiPrefix}${path}`, headers: { 'x-api-key': operatorKey }, ...(payload ? { payload } : {}) });
  const audits = async (action: string) =>
    (await h.db.query<{ admin_id: string; target: string }>('SELECT admin_id::text, target FROM admin_audit WHERE action = $1 ORDER BY id', [action])).rows;
  const eligible = async (id: number, address: string) => {
    await h.call('GET', '', id);
    await h.db.query('UPDATE users SET total_money = 12.5 WHERE id = $1', [id]);
    await h.db.query("INSERT INTO ton_wallets (user_id, address, public_key, wallet_version, linked_at_ms) VALUES ($1, $2, $3, 'v4R2', $4)", [id, address, 'cd'.repeat(32), h.clock.now()]);
  };

  it('settles the forecast with its audit row or not at all, through either door', async () => {
    const right = h.newUserId();
    await h.call('GET', '', right);
    expect((await h.call('POST', '/set-predict-wallet-coming', right, { query: { days: '10' } })).statusCode).toBe(200);
    h.clock.advance(11 * 86_400_000);
    h.session = await h.signIn();
    const launchDay = day(startMs + 10 * 86_400_000);
    const paidAt = async () => (await h.db.query<{ p: string | null }>('SELECT prize_paid_at_ms::text AS p FROM forecasts WHERE user_id = $1', [right])).rows[0]!.p;

    await withAuditRefused(h.db, async () => {
      expect((await h.admin('POST', '/forecast/settle', h.session, { body: { launchDay } })).statusCode).toBe(500);
    });
    expect(await audits('forecast.settle'), 'a failed settlement leaves no audit row').toEqual([]);
    expect(await paidAt(), 'the payout rolled back with its audit row').toBeNull();

    const byOperator = await byKey('POST', '/public/settle-forecast', { launchDay });
    expect(byOperator.statusCode, byOperator.body).toBe(200);
    expect(byOperator.json()).toMatchObject({ launchDay, paid: 1, paidTotal: 1 });
    expect(await paidAt()).not.toBeNull();
    const again = await h.admin('POST', '/forecast/settle', h.session, { body: { launchDay } });
    expect(again.json()).toMatchObject({ launchDay, paid: 0, paidTotal: 1 });
    // Admin id 0 is the operator API key; the console's row names its admin.
    expect(await audits('forecast.settle')).toEqual([
      { admin_id: '0', target: `forecast:${launchDay}` },
      { admin_id: String(adminId), target: `forecast:${launchDay}` },
    ]);
  });

  it('builds the airdrop round with its audit row or not at all', async () => {
    await eligible(h.newUserId(), `0:${'a1'.repeat(32)}`);
    const startFrom = Math.floor(h.clock.now() / 1000);
    const params = { round: 3, startFrom, expireAt: startFrom + 86_400 };
    await withAuditRefused(h.db, async () => {
      expect((await byKey('POST', '/public/airdrop/snapshot', params)).statusCode).toBe(500);
    });
    expect(await audits('airdrop.snapshot')).toEqual([]);
    const status = await h.db.query<{ status: string }>('SELECT status FROM airdrop_rounds WHERE round = 3');
    expect(status.rows[0]!.status, 'the round is not built without its audit row').toBe('building');

    // Asking again finishes the build; the call that builds it writes the row, once.
    const finished = await h.admin('POST', '/airdrop/snapshot', h.session, { body: params });
    expect(finished.statusCode, finished.body).toBe(200);
    expect(finished.json()).toMatchObject({ round: 3, status: 'built' });
    await h.admin('POST', '/airdrop/snapshot', h.session, { body: params });
    expect(await audits('airdrop.snapshot')).toEqual([{ admin_id: String(adminId), target: 'round:3' }]);
  });

  it('serves the new round at once after a snapshot through either door', async () => {
    const address = `0:${'b2'.repeat(32)}`;
    await eligible(h.newUserId(), address);
    const claim = () => h.app.inject({ method: 'GET', url: `${apiPrefix}/jetton/wallet/${address}` });
    const startFrom = Math.floor(h.clock.now() / 1000) + 1_000;
    // The claim API has just read the served round, which does not hold this wallet.
    expect((await claim()).statusCode).toBe(404);

    expect((await byKey('POST', '/public/airdrop/snapshot', { round: 4, startFrom, expireAt: startFrom + 86_400 })).statusCode).toBe(201);
    const viaKey = await claim();
    expect(viaKey.statusCode, viaKey.body).toBe(200);
    expect(viaKey.json<{ compressed_info: { start_from: string } }>().compressed_info.start_from).toBe(String(startFrom));

    expect((await h.admin('POST', '/airdrop/snapshot', h.session, { body: { round: 5, startFrom: startFrom + 1, expireAt: startFrom + 86_400 } })).statusCode).toBe(200);
    const viaConsole = await claim();
    expect(viaConsole.statusCode, viaConsole.body).toBe(200);
    expect(viaConsole.json<{ compressed_info: { start_from: string } }>().compressed_info.start_from).toBe(String(startFrom + 1));
  });
});
