export {
  type BulkAnswer,
  type BulkOperations,
  type CustomerResource,
  clientIdOf,
  createHelpdeskClient,
  type HelpdeskClient,
  type HelpdeskClientOptions,
  IDEMPOTENT_ROUTES,
  type RecordResource,
  type TicketPage,
  type TicketResource,
} from './client.js';
export { type FieldError, HelpdeskError, type ProblemType, parseRetryAfter } from './errors.js';
export type { Paged, PageLike } from './paging.js';
export {
  backoffCeiling,
  DEFAULT_RETRY,
  fullJitter,
  type RetryOptions,
  type RetryPolicy,
  retryDelay,
  retryPolicy,
} from './retry.js';
export type { components, operations, paths } from './schema.js';
export type { RetryEvent } from './transport.js';
export type {
  CallOptions,
  Created,
  CreateOptions,
  Read,
  RequestBody,
  Result,
  Schemas,
  SearchOptions,
  SuccessBody,
  WriteOptions,
} from './types.js';
