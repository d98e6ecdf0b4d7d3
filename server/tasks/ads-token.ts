/**
 * The ad-watch token of `/start-watch-ads`: `<userId>.<nonce>.<expiresAtMs>.<mac>`, where mac is
 * HMAC-SHA256(ADS_TOKEN_SECRET) over the other parts, base64url. The client sends it back as
 * `encryptData` = base64 of the token. The signature stops forgery; single use is the database's
 * job (ad_watch_sessions, keyed by nonce).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface AdsTokenClaims {
  userId: string;
  nonce: string;
  expiresAtMs: number;
}

export type AdsTokenRead = { ok: true; claims: AdsTokenClaims } | { ok: false; reason: 'malformed' | 'bad-signature' | 'expired' };

const mac = (secret: string, body: string) => createHmac('sha256', secret).update(`ads1.${body}`).digest('base64url');

/** 128 random bits, base64url. */
export const newAdsNonce = (): string => randomBytes(16).toString('base64url');

export const signAdsToken = (secret: string, claims: AdsTokenClaims): string => {
  const body = `${claims.userId}.${claims.nonce}.${claims.expiresAtMs}`;
  return `${body}.${mac(secret, body)}`;
};

/** Checks shape, signature (constant time) and expiry. */
export const readAdsToken = (secret: string, token: string, nowMs: number): AdsTokenRead => {
  const parts = token.split('.');
  if (parts.length !== 4 || !secret) return { ok: false, reason: 'malformed' };
  const [userId, nonce, exp, sig] = parts as [string, string, string, string];
  if (!/^[A-Za-z0-9-]{1,40}$/.test(userId) || !/^[A-Za-z0-9_-]{22}$/.test(nonce) || !/^\d{1,15}$/.test(exp)) return { ok: false, reason: 'malformed' };
  const expected = Buffer.from(mac(secret, `${userId}.${nonce}.${exp}`));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'bad-signature' };
  const expiresAtMs = Number(exp);
  if (nowMs >= expiresAtMs) return { ok: false, reason: 'expired' };
  return { ok: true, claims: { userId, nonce, expiresAtMs } };
};

/** `encryptData` is base64 (standard or url-safe) of the token; null when it is not. */
export const decodeEncryptData = (encryptData: string): string | null => {
  if (!encryptData || encryptData.length > 512 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(encryptData)) return null;
  const text = Buffer.from(encryptData, 'base64').toString('utf8');
  return /^[\x21-\x7e]+$/.test(text) ? text : null;
};
