import { economy } from '../rules/economy.ts';

/**
 * The one backoff of the engine's retries (its outbox and its status load): 1 s, 2 s, 4 s …
 * capped at 30 s, for the zero-based attempt number.
 */
export const retryDelayMs = (attempt: number): number =>
  Math.min(economy.retryMaxMs, economy.retryBaseMs * 2 ** Math.max(0, attempt));
