import { describe, expect, it } from 'vitest';
import { isAllowedRedirect, withOutcome } from './x-connect.ts';
import { accountAgeDays, pkceChallenge } from './x-oauth.ts';

describe('X redirect allowlist', () => {
  const list = ['https://money.example/app', 'https://t.me/'];
  it('allows the listed origin under the listed path', () => {
    expect(isAllowedRedirect('https://money.example/app', list)).toBe(true);
    expect(isAllowedRedirect('https://money.example/app/earn?tab=x', list)).toBe(true);
    expect(isAllowedRedirect('https://t.me/money_bot/app', list)).toBe(true);
  });
  it('refuses look-alike hosts, other paths, credentials and other schemes', () => {
    for (const bad of [
      'https://money.example.evil/app',
      'https://evil.example/?https://money.example/app',
      'https://money.example/application',
      'https://money.example/',
      'http://money.example/app',
      'https://user:pw@money.example/app',
      'javascript:alert(1)',
      '//money.example/app',
    ]) expect(isAllowedRedirect(bad, list), bad).toBe(false);
  });
  it('appends the outcome to the redirect', () => {
    expect(withOutcome('https://money.example/app?a=1')).toBe('https://money.example/app?a=1&x_connect=ok');
    expect(withOutcome('https://money.example/app', 'access_denied')).toBe('https://money.example/app?x_connect=error&x_error=access_denied');
  });
});

describe('X OAuth helpers', () => {
  it('computes the RFC 7636 S256 challenge', () => {
    // The example of RFC 7636 appendix B.
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });
  it('counts whole days of account age, never negative', () => {
    expect(accountAgeDays(0, 86_400_000 * 3 - 1)).toBe(2);
    expect(accountAgeDays(1_000, 0)).toBe(0);
  });
});
