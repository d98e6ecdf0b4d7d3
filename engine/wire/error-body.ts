import type { ErrorBody } from './api-types.ts';
import { isRefusalCode, type Refusal } from './refusals.ts';

/**
 * The client side's one reading of an answer body (the engine's transport, the mini-app's API
 * client, the operator console): spec §7 says some calls answer "JSON or text", so a body is its
 * JSON when it parses, else its text, and null when empty.
 */
export const parseBody = (text: string): unknown => {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

/** §8: the server's own message in an error body (`{ error, message }` or plain text), or null. */
export const errorMessageOf = (body: unknown): string | null => {
  if (typeof body === 'string') return body.trim() || null;
  const message = (body as Partial<ErrorBody> | null)?.message;
  return typeof message === 'string' ? message : null;
};

/**
 * The refusal in an error body: the server's message, with its code when it is one this client
 * knows (a newer server's code falls back to the message) and its field. Null without a message.
 */
export const refusalOf = (body: unknown): Refusal | null => {
  const message = errorMessageOf(body);
  if (!message) return null;
  if (typeof body !== 'object' || body === null) return { message };
  const { code, field } = body as Partial<Record<keyof ErrorBody, unknown>>;
  return {
    message,
    ...(isRefusalCode(code) ? { code } : {}),
    ...(typeof field === 'string' ? { field } : {}),
  };
};
