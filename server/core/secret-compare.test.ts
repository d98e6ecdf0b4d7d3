import { describe, expect, it } from 'vitest';
import { secretMatches } from './secret-compare.ts';

describe('secretMatches', () => {
  it('matches only the exact configured secret', () => {
    expect(secretMatches('k3y', 'k3y')).toBe(true);
    expect(secretMatches('k3y ', 'k3y')).toBe(false);
    expect(secretMatches('k3', 'k3y')).toBe(false);
    expect(secretMatches(['k3y'], 'k3y')).toBe(false);
    expect(secretMatches(undefined, 'k3y')).toBe(false);
  });

  it('never matches when no secret is configured', () => {
    expect(secretMatches('', '')).toBe(false);
    expect(secretMatches('anything', '')).toBe(false);
  });
});
