import { describe, expect, it } from 'vitest';
import { initDataFromHeader, initDataSecret, signInitData, verifyInitData } from './init-data.ts';

const token = '123456:ABCdefGHIjklMNOpqrSTUvwxYZ012345';
const now = Date.UTC(2026, 0, 1);
const secret = initDataSecret(token);

describe('Telegram init data', () => {
  it('verifies what signInitData signs, with the user, auth_date and start_param', () => {
    const raw = signInitData(token, { user: { id: 42, first_name: 'A', is_premium: true }, start_param: 'abcDEF' }, now);
    const r = verifyInitData(raw, secret, now, 60);
    expect(r).toEqual({ ok: true, data: { user: { id: 42, first_name: 'A', is_premium: true }, authDate: now / 1_000, startParam: 'abcDEF' } });
  });

  it('checks the data-check-string of every field, in any order, except hash', () => {
    const raw = signInitData(token, { user: { id: 1, first_name: 'A' }, query_id: 'Q', chat_instance: '9' }, now);
    const reordered = raw.split('&').reverse().join('&');
    expect(verifyInitData(reordered, secret, now, 60).ok).toBe(true);
    expect(verifyInitData(raw.replace('query_id=Q', 'query_id=R'), secret, now, 60)).toMatchObject({ ok: false, reason: 'forged' });
  });

  it('names why it refuses: missing, malformed, forged, expired', () => {
    expect(verifyInitData(undefined, secret, now, 60)).toMatchObject({ reason: 'missing' });
    expect(verifyInitData('a=b', secret, now, 60)).toMatchObject({ reason: 'malformed' });
    const raw = signInitData(token, { user: { id: 1, first_name: 'A' } }, now);
    expect(verifyInitData(raw, initDataSecret('999:otherbotTOKENotherbotTOKEN'), now, 60)).toMatchObject({ reason: 'forged' });
    expect(verifyInitData(raw, secret, now + 61_000, 60)).toMatchObject({ reason: 'expired' });
    expect(verifyInitData(raw, secret, now - 3_600_000, 60)).toMatchObject({ reason: 'malformed' });
    const noUser = signInitData(token, { user: 'not json' }, now);
    expect(verifyInitData(noUser, secret, now, 60)).toMatchObject({ reason: 'malformed' });
  });

  it('reads the header raw or as `tma <raw>`', () => {
    expect(initDataFromHeader('tma a=1')).toBe('a=1');
    expect(initDataFromHeader('TMA  a=1')).toBe('a=1');
    expect(initDataFromHeader('a=1')).toBe('a=1');
    expect(initDataFromHeader('  ')).toBeUndefined();
    expect(initDataFromHeader(undefined)).toBeUndefined();
  });
});
