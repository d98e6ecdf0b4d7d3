/** The kinds of value the settings' shapes share (core's and every feature's settings.ts). */
import { z } from 'zod';

/** A text setting; empty (the default) means not set. */
export const text = z.string().trim().default('');

/** A positive duration in ms, with its default. */
export const positiveMs = (def: number) => z.coerce.number().int().positive().default(def);

/** An http(s) URL, or empty (the default) for "derived" or "off". */
export const urlOrEmpty = z.union([z.literal(''), z.url({ protocol: /^https?$/ })]).default('');
