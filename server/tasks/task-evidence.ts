/**
 * The outside evidence a task claim needs (captcha, exchange account, channel boosts), gathered
 * before the claim's transaction. No storage: the browser tests' fake API runs the same checks.
 */
import { claimTaskCaptchaAction } from '../../engine/wire/api-types.ts';
import { refuse } from '../core/errors.ts';
import type { TaskRow } from './task-model.ts';

/**
 * The outside services the task rules need (server/tasks/outside-services.ts implements them on
 * top of config base URLs). When createApp gets no `services`, every task that needs one fails closed:
 * it is refused and credits nothing.
 */
export interface OutsideServices {
  /** Cloudflare Turnstile siteverify: true only for a valid, unused token. */
  verifyCaptcha(token: string, action: string, remoteIp?: string): Promise<boolean>;
  /** True when the exchange account `uid` was registered through our link. */
  checkExchange(handleType: 'CHECK_ONUS' | 'CHECK_BINGX', uid: string): Promise<boolean>;
  /** How many times the Telegram user has boosted our channel. */
  countChannelBoosts(telegramUserId: string): Promise<number>;
}

export interface ClaimInput {
  captchaToken?: string;
  inputValue?: string;
  remoteIp?: string;
}

/** What the outside services said before the transaction (no lock is held across a network call). */
export interface OutsideEvidence {
  boosts?: number;
}

const need = (services: OutsideServices | undefined): OutsideServices => {
  // Fail closed: without the service the task cannot be verified, so nothing is credited.
  if (services === undefined) throw refuse('taskUnverifiable');
  return services;
};

/**
 * The outside checks of a claim, run before its transaction: captcha (when the task needs one),
 * the exchange account (CHECK_ONUS/CHECK_BINGX) and the channel boost count (BOOST).
 */
export const verifyOutside = async (task: TaskRow, userId: number, input: ClaimInput, services: OutsideServices | undefined): Promise<OutsideEvidence> => {
  if (task.needs_captcha) {
    if (input.captchaToken === undefined || input.captchaToken === '') throw refuse('captchaMissing', { field: 'captchaToken' });
    if (!(await need(services).verifyCaptcha(input.captchaToken, claimTaskCaptchaAction, input.remoteIp))) throw refuse('captchaFailed', { field: 'captchaToken' });
  }
  if (task.handle_type === 'CHECK_ONUS' || task.handle_type === 'CHECK_BINGX') {
    if (input.inputValue === undefined || input.inputValue.trim() === '') throw refuse('inputMissing', { field: 'inputValue' });
    if (!(await need(services).checkExchange(task.handle_type, input.inputValue.trim()))) throw refuse('exchangeNotRegistered', { field: 'inputValue' });
  }
  if (task.handle_type === 'BOOST') return { boosts: await need(services).countChannelBoosts(String(userId)) };
  return {};
};

