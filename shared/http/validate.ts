import type * as z from 'zod/mini';
import { badRequest, type FieldError } from './errors';

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
  throw badRequest(`The ${part} is invalid.`, fieldErrors(parsed.error.issues));
};
