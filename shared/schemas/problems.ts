import * as z from 'zod/mini';

/**
 * Every problem `type` the API answers (`urn:helpdesk:problem:<code>`), with its status: the
 * catalogue docs/errors.md explains, the OpenAPI document publishes (each status's problem
 * schema allows exactly its own types) and the integration tests hold every error response to.
 * A new code goes here and in docs/errors.md (test/unit/openapi.test.ts compares them).
 */
export const PROBLEM_TYPES = {
  'validation-error': 400,
  'malformed-json': 400,
  'bad-request': 400,
  'invalid-reference': 400,
  'line-too-long': 400,
  unauthorized: 401,
  'not-found': 404,
  'no-route': 404,
  'duplicate-email': 409,
  'duplicate-type': 409,
  'duplicate-area': 409,
  'duplicate-group': 409,
  'in-use': 409,
  'reference-gone': 409,
  'ticket-merged': 409,
  'already-merged': 409,
  'merge-chain': 409,
  'merge-limit': 409,
  'merge-target-gone': 409,
  'unmerge-expired': 409,
  'request-in-progress': 409,
  'webhook-limit': 409,
  'import-file-missing': 409,
  'import-finished': 409,
  'import-moved': 409,
  'cursor-expired': 410,
  'precondition-failed': 412,
  'content-too-large': 413,
  'too-many-changes': 413,
  'unsupported-media-type': 415,
  'idempotency-key-reused': 422,
  'rate-limited': 429,
  'internal-error': 500,
  contended: 503,
  'index-behind': 503,
  unavailable: 503,
  'outcome-unknown': 504,
} as const;
export type ProblemCode = keyof typeof PROBLEM_TYPES;

export const PROBLEM_TYPE_PREFIX = 'urn:helpdesk:problem:';

/** The problem types of one status, as URNs. */
export const problemTypesOf = (status: number): string[] =>
  Object.entries(PROBLEM_TYPES)
    .filter(([, s]) => s === status)
    .map(([code]) => `${PROBLEM_TYPE_PREFIX}${code}`);

export const fieldError = z.object({
  path: z.string().check(z.describe('The field or parameter, dotted (`attachedDocuments.1.documentBlob`).')),
  message: z.string(),
});

/** RFC 9457 problem details of one status: `type` one of that status's types. */
export const problemView = (status: number) => {
  const types = problemTypesOf(status);
  if (types.length === 0) throw new Error(`No problem type answers ${status}`);
  return z.object({
    type: z
      .enum(types as [string, ...string[]])
      .check(z.describe('Stable URN to branch on (docs/errors.md).')),
    title: z.string().check(z.describe('Short human-readable summary of the status.')),
    status: z.literal(status),
    detail: z.string().check(z.describe('What went wrong with this request, for a human.')),
    errors: z.optional(
      z.array(fieldError).check(z.describe('Each invalid field or parameter (validation problems).')),
    ),
    instance: z.string().check(z.describe('The path of the request.')),
  });
};
