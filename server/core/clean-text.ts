/**
 * Text PostgreSQL cannot store is cleaned where it enters: NUL (U+0000) is removed, and a lone
 * UTF-16 surrogate (half of an emoji, cut) becomes U+FFFD. Applied to every string of a request's
 * body, query and path parameters (installValidation) and to the init data's user (init-data.ts),
 * so no player can be locked out by their own name (docs/faults.md "Text PostgreSQL refuses").
 */

// A high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

// What either fix touches (with NUL); most text has neither, and is returned as it is.
const surrogate = /[\uD800-\uDFFF]/;

/** The string as PostgreSQL will take it: no NUL, no lone surrogate. */
export const cleanText = (s: string): string => (s.includes('\u0000') || surrogate.test(s) ? s.replaceAll('\u0000', '').replace(loneSurrogate, '\uFFFD') : s);

/**
 * Cleans every string inside plain JSON data (objects, arrays), keys included. Returns the value
 * itself when nothing in it needed cleaning (every request's body passes here), else a cleaned copy.
 */
export const cleanStrings = (value: unknown, depth = 0): unknown => {
  if (typeof value === 'string') return cleanText(value);
  // JSON bodies are at most 16 KiB; the depth bound only guards against a pathological nesting.
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) {
    const out = value.map((v) => cleanStrings(v, depth + 1));
    return out.some((v, i) => v !== value[i]) ? out : value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  const cleaned = keys.map((k) => cleanStrings(record[k], depth + 1));
  if (keys.every((k, i) => cleanText(k) === k && cleaned[i] === record[k])) return value;
  // fromEntries defines own properties: a "__proto__" key stays a plain key.
  return Object.fromEntries(keys.map((k, i) => [cleanText(k), cleaned[i]]));
};
