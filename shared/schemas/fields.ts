import * as z from 'zod/mini';
import { COUNTRY_CODES } from './country-codes';

/**
 * Building blocks shared by every resource schema. zod/mini (the tree-shakable form of zod)
 * keeps every function bundle small; limits are documented in docs/decisions.md.
 *
 * Schemas are built on first use (`z.lazy`, `onFirstUse`), not when their module loads: every
 * function imports the whole route table, yet parses only its own route's input, and building
 * every resource's schemas at start-up was most of a function's cold start (docs/performance.md).
 */

/** The value `build` returns, built on the first call and kept. */
export const onFirstUse = <T>(build: () => T): (() => T) => {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
};
export const text = (max: number) => z.string().check(z.maxLength(max, `at most ${max} characters`));
export const requiredText = (max: number) =>
  z
    .string()
    .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(max, `at most ${max} characters`));
export const optionalText = (max: number) => z.nullable(text(max));

/** Integer milliseconds since the epoch, negative allowed. */
export const timestamp = z.int('must be an integer millisecond timestamp');

/** Deskero clients send some timestamps as strings of digits: accept both, store a number. */
export const looseTimestamp = z.lazy(() =>
  z
    .union([
      timestamp,
      z.pipe(
        z.string().check(z.regex(/^-?\d{1,16}$/, 'must be a millisecond timestamp')),
        z.pipe(z.transform(Number), timestamp),
      ),
    ])
    .check(z.describe('Milliseconds since the epoch, as an integer or a string of digits.')),
);

export const email = z
  .email('must be a valid e-mail address')
  .check(z.maxLength(254, 'at most 254 characters'));

export const LANGUAGES = ['en', 'it', 'es', 'fr'] as const;
export const language = z.enum(LANGUAGES, 'must be one of en, it, es, fr');

export const countryCode = z.string().check(
  z.toUpperCase(),
  z.refine((s) => COUNTRY_CODES.has(s), 'must be a two-letter ISO 3166-1 country code'),
  z.describe('ISO 3166-1 alpha-2 country code, either case (stored upper-case).'),
);

/** A reference to another record in a body: `{ "id": "..." }`. */
export const reference = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });

/** Free-form custom fields: flat string keys to scalar values, bounded in size. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
export const customFields = z.lazy(() =>
  z.nullable(
    z
      .record(
        z.string().check(
          z.minLength(1),
          z.maxLength(100),
          z.refine((k) => !FORBIDDEN_KEYS.has(k), 'reserved key'),
        ),
        z.union([text(2000), z.number(), z.boolean(), z.null()]),
      )
      .check(z.refine((o) => Object.keys(o).length <= 50, 'at most 50 custom fields')),
  ),
);

export const labels = z.lazy(() =>
  z.object({
    en: z.optional(text(200)),
    it: z.optional(text(200)),
    es: z.optional(text(200)),
    fr: z.optional(text(200)),
  }),
);
