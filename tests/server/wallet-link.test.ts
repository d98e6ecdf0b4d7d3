import { randomBytes } from 'node:crypto';
import { Address } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { describe, expect, it } from 'vitest';
import type { WalletInfo, WalletLinkPayload } from '../../engine/wire/api-types.ts';
import { signedLink, testWallet, walletCodes, type TestWallet } from '../fixtures/ton-wallets.ts';
import { backends, openForSuite } from './harness.ts';
import { domain, openWalletHarness } from './wallet-harness.ts';

describe.each(backends)('linking a TON wallet with ton_proof (%s)', (backend) => {
  const h = openForSuite(() => openWalletHarness(backend));

  const nowS = () => Math.floor(h.clock.now() / 1000);
  const payloadFor = async (user: number) => (await h.call('POST', '/wallet/ton-proof-payload', user)).json<{ payload: string }>().payload;
  const link = (user: number, body: WalletLinkPayload) => h.call('POST', '/wallet/link', user, { body });
  const walletOf = async (user: number) => (await h.call('GET', '/wallet', user)).json<WalletInfo>();
  const linkedCount = async () => Number((await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ton_wallets')).rows[0]!.n);

  it.each(Object.keys(walletCodes) as (keyof typeof walletCodes)[])('links a %s wallet whose proof verifies, and shows it', async (version) => {
    const user = h.newUserId();
    const w = testWallet(version);
    const r = await link(user, signedLink(w, { payload: await payloadFor(user), domain, timestampS: nowS() }));
    expect(r.statusCode, r.body).toBe(200);
    const info = await walletOf(user);
    expect(info.address).toBe(w.address.toRawString());
    expect(info.friendlyAddress).toBe(w.address.toString({ bounceable: false }));
    expect(info.allocation).toBeNull();
  });

  it('refuses a forged, expired, wrong-domain or mismatched proof with a 400 naming the field, and changes nothing', async () => {
    const user = h.newUserId();
    const w = testWallet();
    const payload = await payloadFor(user);
    const before = await linkedCount();
    const other = testWallet('v3R2');
    const cases: [WalletLinkPayload, string][] = [
      [signedLink(w, { payload, domain, timestampS: nowS(), signer: keyPairFromSeed(randomBytes(32)) }), 'proof.signature'],
      [signedLink(w, { payload, domain, timestampS: nowS() - h.config.TON_PROOF_TTL_S - 1 }), 'proof.timestamp'],
      [signedLink(w, { payload, domain: 'evil.example', timestampS: nowS() }), 'proof.domain'],
      // The address of another wallet, with this wallet's state init (and a valid signature over that address).
      [signedLink(w, { payload, domain, timestampS: nowS(), address: other.address }), 'walletStateInit'],
      [{ ...signedLink(w, { payload, domain, timestampS: nowS() }), publicKey: other.keys.publicKey.toString('hex') }, 'publicKey'],
      [{ ...signedLink(w, { payload, domain, timestampS: nowS() }), address: 'not-an-address' }, 'address'],
      // A masterchain wallet (the proof is signed over its address): only basechain wallets are linked.
      [signedLink(w, { payload, domain, timestampS: nowS(), address: new Address(-1, w.address.hash) }), 'address'],
    ];
    for (const [body, field] of cases) {
      const r = await link(user, body);
      expect(r.statusCode, field).toBe(400);
      expect(r.json().field).toBe(field);
    }
    expect(await linkedCount()).toBe(before);
    expect((await walletOf(user)).address).toBeNull();
    // The payload was not spent by the refusals: the genuine proof still links.
    expect((await link(user, signedLink(w, { payload, domain, timestampS: nowS() }))).statusCode).toBe(200);
  });

  it('parses the address strictly: 0:<64 hex> and nothing around it, else a 400 naming address that changes nothing', async () => {
    const user = h.newUserId();
    const w = testWallet();
    const payload = await payloadFor(user);
    const hex = w.address.hash.toString('hex');
    const signed = signedLink(w, { payload, domain, timestampS: nowS() });
    const before = await linkedCount();
    // The proof and the state init are the genuine ones: only the address text is off.
    for (const address of [`0:${hex}zz`, `0:${hex}0`, `0:${hex.slice(1)}`, ` 0:${hex}`, `0:${hex} `, `+0:${hex}`, `00:${hex}`, `-0:${hex}`, `0x0:${hex}`, `256:${hex}`, w.address.toString()]) {
      const r = await link(user, { ...signed, address });
      expect(r.statusCode, address).toBe(400);
      expect(r.json().field).toBe('address');
    }
    expect(await linkedCount()).toBe(before);
    expect((await walletOf(user)).address).toBeNull();
    // Upper-case hex is the same address, and the unspent payload links it.
    const r = await link(user, { ...signed, address: `0:${hex.toUpperCase()}` });
    expect(r.statusCode, r.body).toBe(200);
    expect((await walletOf(user)).address).toBe(w.address.toRawString());
  });

  it('links one of two wallets a player links at once: one 200, one 409, the loser\'s payload unspent', async () => {
    for (let i = 0; i < 10; i++) {
      const user = h.newUserId();
      const wallets = [testWallet(), testWallet('v5R1')];
      const bodies = [];
      for (const w of wallets) bodies.push(signedLink(w, { payload: await payloadFor(user), domain, timestampS: nowS() }));
      const answers = await Promise.all(bodies.map((body) => link(user, body)));
      expect(answers.map((a) => a.statusCode).sort(), answers.map((a) => a.body).join('\n')).toEqual([200, 409]);
      const won = answers.findIndex((a) => a.statusCode === 200);
      const lost = 1 - won;
      expect(answers[lost]!.json().field).toBe('address');
      expect((await walletOf(user)).address).toBe(wallets[won]!.address.toRawString());
      const rows = await h.db.query<{ address: string }>('SELECT address FROM ton_wallets WHERE user_id = $1', [user]);
      expect(rows.rows.map((r) => r.address)).toEqual([wallets[won]!.address.toRawString()]);
      // Nothing of the refused link was kept: after an unlink its payload still links its wallet.
      await h.call('POST', '/wallet/unlink', user);
      expect((await link(user, bodies[lost]!)).statusCode).toBe(200);
      expect((await walletOf(user)).address).toBe(wallets[lost]!.address.toRawString());
    }
  });

  it('refuses a replayed proof and a payload issued to someone else (409), changing nothing', async () => {
    const a = h.newUserId();
    const b = h.newUserId();
    const w: TestWallet = testWallet('v5R1');
    const body = signedLink(w, { payload: await payloadFor(a), domain, timestampS: nowS() });
    expect((await link(a, body)).statusCode).toBe(200);
    expect((await h.call('POST', '/wallet/unlink', a)).json<WalletInfo>().address).toBeNull();
    const replay = await link(a, body);
    expect(replay.statusCode).toBe(409);
    expect(replay.json().field).toBe('proof.payload');
    expect((await walletOf(a)).address).toBeNull();
    const stolen = await link(b, signedLink(w, { payload: await payloadFor(a), domain, timestampS: nowS() }));
    expect(stolen.statusCode).toBe(409);
    expect((await walletOf(b)).address).toBeNull();
  });

  it('refuses a payload past its lifetime', async () => {
    const user = h.newUserId();
    const payload = await payloadFor(user);
    h.clock.advance((h.config.TON_PROOF_TTL_S + 1) * 1000);
    const r = await link(user, signedLink(testWallet(), { payload, domain, timestampS: nowS() }));
    expect(r.statusCode).toBe(409);
    expect(r.json().field).toBe('proof.payload');
  });

  it('keeps one player per wallet and one wallet per player; unlink frees the wallet', async () => {
    const a = h.newUserId();
    const b = h.newUserId();
    const w = testWallet();
    expect((await link(a, signedLink(w, { payload: await payloadFor(a), domain, timestampS: nowS() }))).statusCode).toBe(200);
    const bPayload = await payloadFor(b);
    const taken = await link(b, signedLink(w, { payload: bPayload, domain, timestampS: nowS() }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().field).toBe('address');
    expect((await walletOf(b)).address).toBeNull();
    const second = await link(a, signedLink(testWallet(), { payload: await payloadFor(a), domain, timestampS: nowS() }));
    expect(second.statusCode).toBe(409);
    expect((await walletOf(a)).address).toBe(w.address.toRawString());
    // After a unlinks, b's unspent payload links the wallet.
    await h.call('POST', '/wallet/unlink', a);
    expect((await link(b, signedLink(w, { payload: bPayload, domain, timestampS: nowS() }))).statusCode).toBe(200);
    expect((await walletOf(b)).address).toBe(w.address.toRawString());
  });

  it('serves the TON Connect manifest whose url host is the proof domain', async () => {
    const r = await h.call('GET', '/public/tonconnect-manifest.json', null);
    expect(r.statusCode).toBe(200);
    expect(new URL(r.json<{ url: string }>().url).host).toBe(domain);
  });

  it('needs init data for the wallet calls', async () => {
    expect((await h.call('GET', '/wallet', null)).statusCode).toBe(401);
    expect((await h.call('POST', '/wallet/ton-proof-payload', null)).statusCode).toBe(401);
  });
});
