import type * as z from 'zod/mini';
import { badRequest } from '../http/errors';

/** Parses a body with a zod schema; failures become one 400 listing every field error. */
export const validate = <S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> => {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw badRequest('The body must be a JSON object.', [{ path: '', message: 'expected a JSON object' }]);
  }
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
  throw badRequest('The body is invalid.', errors);
};
