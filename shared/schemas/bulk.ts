import * as z from 'zod/mini';

/** Operations one bulk call may carry. */
export const BULK_LIMIT = 100;

/** What an operation of a bulk call names: the record (but for an insert) and whether it has a body. */
export interface BulkOp {
  readonly id: boolean;
  readonly body: boolean;
}

export const TICKET_BULK_OPS = {
  insert: { id: false, body: true },
  update: { id: true, body: true },
  delete: { id: true, body: false },
  reply: { id: true, body: true },
  addNote: { id: true, body: true },
} as const satisfies Record<string, BulkOp>;

export const RECORD_BULK_OPS = {
  insert: { id: false, body: true },
  update: { id: true, body: true },
  delete: { id: true, body: false },
} as const satisfies Record<string, BulkOp>;

/** One operation as a bulk call's items carry it. */
export interface BulkOperation {
  op: string;
  id?: string;
  key?: string;
  ifMatch?: string;
  body?: unknown;
}
export interface BulkInput {
  operations: BulkOperation[];
}

const itemOf = (op: string, { id, body }: BulkOp, bodySchema?: z.ZodMiniType) =>
  z.strictObject({
    op: z.literal(op),
    ...(id
      ? { id: z.string().check(z.minLength(1, 'must not be empty'), z.describe('The record it changes.')) }
      : {}),
    key: z.optional(
      z
        .string()
        .check(
          z.describe("This operation's own Idempotency-Key: a retry with it replays, never applies twice."),
        ),
    ),
    ...(id
      ? {
          ifMatch: z.optional(
            z.string().check(z.describe("The record's ETag it expects (If-Match): 412 otherwise.")),
          ),
        }
      : {}),
    ...(body
      ? {
          body: z.optional(
            bodySchema ??
              z
                .unknown()
                .check(z.describe(`The body of its own route (the \`${op}\` route's request body).`)),
          ),
        }
      : {}),
  });

/**
 * A bulk call's body: 1 to BULK_LIMIT operations of the given kinds. Only its shape is checked
 * here (a malformed call writes nothing); each operation's body, key and If-Match are checked by
 * its own route as it runs, so one invalid operation fails alone. With `bodies` (each kind's
 * route body), the body as the OpenAPI document describes it: typed clients check each
 * operation's body as they check the single route's.
 */
export const bulkInput = (
  ops: Readonly<Record<string, BulkOp>>,
  bodies: Readonly<Record<string, z.ZodMiniType>> = {},
) =>
  z.lazy(() =>
    z.strictObject({
      operations: z
        .array(
          z.discriminatedUnion(
            'op',
            Object.entries(ops).map(([op, shape]) => itemOf(op, shape, bodies[op])) as unknown as [
              ReturnType<typeof itemOf>,
              ...ReturnType<typeof itemOf>[],
            ],
          ),
        )
        .check(
          z.minLength(1, 'send at least one operation'),
          z.maxLength(BULK_LIMIT, `at most ${BULK_LIMIT} operations a call`),
        ),
    }),
  );
