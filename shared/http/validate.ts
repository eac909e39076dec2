import type * as z from 'zod/mini';
import { badRequest, type FieldError, HttpError } from './errors';
import { fieldPath, MAX_FIELD_ERRORS } from './field-path';

type Part = 'body' | 'query' | 'path';

/**
 * One field error per issue (an unknown field named by its own path), the first
 * MAX_FIELD_ERRORS of them: one body can break a rule in each of thousands of places, and the
 * answer names a few, each path shown bounded (field-path.ts).
 */
const fieldErrors = (issues: z.core.$ZodIssue[]): FieldError[] => {
  const errors: FieldError[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys.slice(0, MAX_FIELD_ERRORS - errors.length)) {
        errors.push({ path: fieldPath([...issue.path, key]), message: 'unknown field' });
      }
    } else errors.push({ path: fieldPath(issue.path), message: issue.message });
    if (errors.length >= MAX_FIELD_ERRORS) break;
  }
  return errors;
};

/** Parses a part of the request with its route's schema; failures become one 400 listing its field errors. */
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
