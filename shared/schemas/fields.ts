import * as z from 'zod';
import { COUNTRY_CODES } from './country-codes';

/** Building blocks shared by every resource schema. Limits are documented in docs/limits.md. */
export const text = (max: number) => z.string().max(max, `at most ${max} characters`);
export const requiredText = (max: number) =>
  z.string().trim().min(1, 'must not be empty').max(max, `at most ${max} characters`);
export const optionalText = (max: number) => text(max).nullable();

/** Integer milliseconds since the epoch, negative allowed. */
export const timestamp = z.number().int('must be an integer millisecond timestamp').safe();

/** Deskero clients send some timestamps as strings of digits: accept both, store a number. */
export const looseTimestamp = z.union([
  timestamp,
  z
    .string()
    .regex(/^-?\d{1,16}$/, 'must be a millisecond timestamp')
    .transform(Number)
    .pipe(timestamp),
]);

export const email = z.email('must be a valid e-mail address').max(254, 'at most 254 characters');

export const LANGUAGES = ['en', 'it', 'es', 'fr'] as const;
export const language = z.enum(LANGUAGES, { message: 'must be one of en, it, es, fr' });

export const countryCode = z
  .string()
  .transform((s) => s.toUpperCase())
  .refine((s) => COUNTRY_CODES.has(s), 'must be a two-letter ISO 3166-1 country code');

/** A reference to another record in a body: `{ "id": "..." }`. */
export const reference = z.object({ id: z.string().min(1).max(64) });

/** Free-form custom fields: flat string keys to scalar values, bounded in size. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
export const customFields = z
  .record(
    z
      .string()
      .min(1)
      .max(100)
      .refine((k) => !FORBIDDEN_KEYS.has(k), 'reserved key'),
    z.union([text(2000), z.number(), z.boolean(), z.null()]),
  )
  .refine((o) => Object.keys(o).length <= 50, 'at most 50 custom fields')
  .nullable();

export const labels = z.object({
  en: text(200).optional(),
  it: text(200).optional(),
  es: text(200).optional(),
  fr: text(200).optional(),
});
