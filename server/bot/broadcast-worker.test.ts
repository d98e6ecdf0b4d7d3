import { GrammyError, HttpError } from 'grammy';
import { describe, expect, it } from 'vitest';
import { classifySendError } from './broadcast-worker.ts';

const telegramError = (error_code: number, description: string, parameters = {}) =>
  new GrammyError('Call to sendMessage failed!', { ok: false, error_code, description, parameters }, 'sendMessage', {});

describe('what a failed send does to the row', () => {
  it('retries a 429 after retry_after: Telegram did not deliver', () => {
    expect(classifySendError(telegramError(429, 'Too Many Requests', { retry_after: 7 }), 1_000)).toMatchObject({ kind: 'retry', notBeforeMs: 8_000 });
  });
  it('gives up on a user who blocked the bot', () => {
    expect(classifySendError(telegramError(403, 'Forbidden: bot was blocked by the user'), 0).kind).toBe('failed');
  });
  it('retries when the request never left (connection refused)', () => {
    const err = new HttpError('Network request for sendMessage failed!', Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }));
    expect(classifySendError(err, 0).kind).toBe('retry');
  });
  it('never resends when the message may have been delivered (reset, timeout, 5xx)', () => {
    const reset = new HttpError('Network request for sendMessage failed!', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    expect(classifySendError(reset, 0).kind).toBe('uncertain');
    expect(classifySendError(telegramError(502, 'Bad Gateway'), 0).kind).toBe('uncertain');
  });
});
