import { describe, expect, it } from 'vitest';
import { decodeEncryptData, newAdsNonce, readAdsToken, signAdsToken } from './ads-token.ts';

const secret = 'unit-secret';
const claims = { userId: '123456789', nonce: newAdsNonce(), expiresAtMs: 2_000_000 };

describe('ads token', () => {
  it('reads back what it signed until it expires', () => {
    const token = signAdsToken(secret, claims);
    expect(readAdsToken(secret, token, 1_999_999)).toEqual({ ok: true, claims });
    expect(readAdsToken(secret, token, 2_000_000)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a changed part or another secret', () => {
    const token = signAdsToken(secret, claims);
    const [u, n, e, s] = token.split('.');
    expect(readAdsToken(secret, `${u}1.${n}.${e}.${s}`, 0).ok).toBe(false);
    expect(readAdsToken(secret, `${u}.${n}.${Number(e) + 1}.${s}`, 0)).toEqual({ ok: false, reason: 'bad-signature' });
    expect(readAdsToken('other', token, 0)).toEqual({ ok: false, reason: 'bad-signature' });
    expect(readAdsToken('', token, 0).ok).toBe(false);
    expect(readAdsToken(secret, 'a.b.c', 0)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('makes 128-bit nonces that differ', () => {
    const a = newAdsNonce();
    expect(Buffer.from(a, 'base64url')).toHaveLength(16);
    expect(newAdsNonce()).not.toBe(a);
  });

  it('decodes encryptData as standard or url-safe base64, refusing other text', () => {
    const token = signAdsToken(secret, claims);
    expect(decodeEncryptData(Buffer.from(token).toString('base64'))).toBe(token);
    expect(decodeEncryptData(Buffer.from(token).toString('base64url'))).toBe(token);
    expect(decodeEncryptData('not base64!')).toBeNull();
    expect(decodeEncryptData(Buffer.from('two words').toString('base64'))).toBeNull();
    expect(decodeEncryptData('')).toBeNull();
  });
});
