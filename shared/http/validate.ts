import type * as z from 'zod/mini';
import { badRequest, type FieldError, HttpError } from './errors';

type Part = 'body' | 'query' | 'path';

/** One field error per issue; an unknown field is named by its own path. */
const fieldErrors = (issues: z.core.$ZodIssue[]): FieldError[] =>
  issues.flatMap((issue) => {
    const at = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...at, key].join('.'), message: 'unknown field' }));
    }
    return [{ path: at.join('.'), message: issue.message }];
  });

/** Parses a part of the request with its route's schema; failures become one 400 listing every field error. */
export const validate = <S extends z.ZodMiniType>(
  schema: S,
  input: unknown,
  part: Part = 'body',
): z.output<S> => {
  if (part === 'body' && (typeof input !== 'object' || input === null || Array.isArray(input))) {
    throw badRequest('The body must be a JSON object.', [{ path: '', message: 'expected a JSON object' }]);
  }
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const errors = fieldErrors(parsed.error.issues);
  // A bad body is a `validation-error`; a bad page, search or path parameter a `bad-request` (docs/errors.md).
  if (part === 'body') throw badRequest('The body is invalid.', errors);
  throw new HttpError(400, 'bad-request', 'Bad Request', `The ${part} is invalid.`, errors);
};
