/**
 * Constant-time comparison of a presented secret with the configured one. Both sides are hashed
 * first so neither the content nor the length leaks through timing. An empty configured secret
 * never matches: a service without its secret is closed.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

export const secretMatches = (presented: unknown, configured: string): boolean => {
  if (!configured || typeof presented !== 'string') return false;
  return timingSafeEqual(digest(presented), digest(configured));
};
