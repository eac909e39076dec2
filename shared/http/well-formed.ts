import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { badRequest, type FieldError, HttpError } from './errors';

/**
 * Every string a request carries must be well-formed Unicode. JSON text can spell a lone UTF-16
 * surrogate (`"\ud800"`) and JSON.parse hands it over as is; the store writes UTF-8, where every
 * lone surrogate becomes U+FFFD, so `"\ud800"` and `"\udfff"` would be one tag, one lookup name,
 * one search value, one idempotency fingerprint. Checked once here, for the parsed body (values
 * and object keys at any depth), the query and the path parameters, before the Idempotency-Key
 * and the route's schemas look at them. The headers the service reads have ASCII grammars of
 * their own (Idempotency-Key → 400, clientId → 401, If-Match → 412).
 */
export const ILL_FORMED = 'must be well-formed Unicode (no lone surrogates)';

/** Enough to show the client what is wrong without echoing a huge body back. */
const MAX_ERRORS = 20;

/** A path segment as the answer shows it: ill-formed names are shown with U+FFFD in place. */
const shown = (segment: string) => segment.toWellFormed();

/**
 * Paths of the ill-formed strings (values and object keys) in a parsed JSON value, in document
 * order; iterative, so a deeply nested body costs no stack.
 */
export const illFormedPaths = (root: unknown, max = MAX_ERRORS): string[] => {
  const found: string[] = [];
  // [value, its path, whether the key leading to it is ill-formed]
  const pending: [unknown, string[], boolean][] = [[root, [], false]];
  while (pending.length && found.length < max) {
    const [value, path, badKey] = pending.pop() as [unknown, string[], boolean];
    if (badKey) found.push(path.join('.'));
    if (typeof value === 'string') {
      if (!value.isWellFormed()) found.push(path.join('.'));
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push([value[i], [...path, String(i)], false]);
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i] as [string, unknown];
        pending.push([child, [...path, shown(key)], !key.isWellFormed()]);
      }
    }
  }
  return [...new Set(found)]; // an ill-formed key holding an ill-formed string is named once
};

/** Names and values of a flat string map (query, path parameters). */
const illFormedParams = (params: Record<string, string | undefined> | undefined): FieldError[] =>
  Object.entries(params ?? {})
    .filter(([name, value]) => !name.isWellFormed() || (value !== undefined && !value.isWellFormed()))
    .slice(0, MAX_ERRORS)
    .map(([name]) => ({ path: shown(name), message: ILL_FORMED }));

/**
 * Registered after the JSON body parser and before the Idempotency-Key: a refused request is
 * answered 400 before anything is read or written. Path and query first (a `bad-request`, as
 * their other refusals), then the body (a `validation-error` naming each field).
 */
export const wellFormedInput = (): MiddlewareObj<APIGatewayProxyEventV2> => ({
  before: ({ event }) => {
    for (const [part, params] of [
      ['path', event.pathParameters],
      ['query', event.queryStringParameters],
    ] as const) {
      const errors = illFormedParams(params);
      if (errors.length) {
        throw new HttpError(400, 'bad-request', 'Bad Request', `The ${part} is invalid.`, errors);
      }
    }
    const body: unknown = event.body;
    if (typeof body !== 'object' || body === null) return; // not parsed: no body route, or none sent
    const paths = illFormedPaths(body);
    if (paths.length) {
      throw badRequest(
        'The body is invalid.',
        paths.map((path) => ({ path, message: ILL_FORMED })),
      );
    }
  },
});
