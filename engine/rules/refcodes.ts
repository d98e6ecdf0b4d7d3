import { economy } from './economy.ts';

/**
 * §2/§5: a start parameter registers a referral when it is exactly 6 characters and differs from
 * the user's own refcode.
 */
export const isReferralStartParam = (startParam: string | null | undefined, ownRefcode: string | null | undefined): boolean =>
  typeof startParam === 'string' && startParam.length === economy.refcodeLength && startParam !== ownRefcode;

/** docs/rules.md §9: a refcode is 6 characters of [A-Za-z0-9]. */
export const isRefcode = (value: string): boolean =>
  value.length === economy.refcodeLength && [...value].every((c) => economy.refcodeAlphabet.includes(c));

/**
 * Makes a refcode from 6 random integers (randomness comes in as an argument: engine/ never
 * reads Math.random).
 */
export const refcodeFrom = (randomInts: readonly number[]): string =>
  randomInts
    .slice(0, economy.refcodeLength)
    .map((n) => economy.refcodeAlphabet[Math.abs(n) % economy.refcodeAlphabet.length])
    .join('');
