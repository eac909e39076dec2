import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { badRequest, type FieldError, HttpError } from './errors';
import { fieldPath, MAX_FIELD_ERRORS } from './field-path';
import { keysOf, walkJson } from './json-walk';

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

/**
 * Paths of the ill-formed strings (values and object keys) in a parsed JSON value, in document
 * order, at most `max` of them: one linear walk (json-walk.ts), whatever the body's depth and
 * width, and a path built only for what is reported.
 */
export const illFormedPaths = (root: unknown, max = MAX_FIELD_ERRORS): string[] => {
  const found: string[] = [];
  walkJson(root, (entry) => {
    const { key, value } = entry;
    // An ill-formed key holding an ill-formed string is one field: named once.
    if (
      (typeof key === 'string' && !key.isWellFormed()) ||
      (typeof value === 'string' && !value.isWellFormed())
    ) {
      found.push(fieldPath(keysOf(entry)));
    }
    return found.length < max;
  });
  return [...new Set(found)]; // two ill-formed keys may read alike once shown with U+FFFD
};

/** Names and values of a flat string map (query, path parameters). */
const illFormedParams = (params: Record<string, string | undefined> | undefined): FieldError[] =>
  Object.entries(params ?? {})
    .filter(([name, value]) => !name.isWellFormed() || (value !== undefined && !value.isWellFormed()))
    .slice(0, MAX_FIELD_ERRORS)
    .map(([name]) => ({ path: fieldPath([name]), message: ILL_FORMED }));

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
