import type { components, paths } from './schema.js';

/**
 * Types of requests and answers, looked up in the generated `paths` by path and method, so every
 * wrapper's signature follows docs/openapi.json.
 */
export type Path = keyof paths;
export type Method = 'get' | 'post' | 'put' | 'delete';
export type Schemas = components['schemas'];

type Operation<P extends Path, M extends Method> = NonNullable<paths[P][M]>;
type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Responses<P extends Path, M extends Method> = Operation<P, M> extends { responses: infer R } ? R : never;

/** The JSON body a route takes. */
export type RequestBody<P extends Path, M extends Method> =
  Operation<P, M> extends {
    requestBody?: { content: { 'application/json': infer B } };
  }
    ? B
    : never;

/** The JSON body of a route's success answer (200 or 201). */
export type SuccessBody<P extends Path, M extends Method> = Json<
  Responses<P, M>[Extract<keyof Responses<P, M>, 200 | 201>]
>;

/** The query parameters of a GET route. */
export type Query<P extends Path> = NonNullable<Operation<P, 'get'>['parameters']['query']>;

/** A list answer is `{ <wrapper>: page }`: the page, whatever the wrapper's name. */
export type PageOf<P extends Path> = SuccessBody<P, 'get'>[keyof SuccessBody<P, 'get'>];
/** One record of a list. */
export type RecordOf<P extends Path> = PageOf<P> extends { records: (infer R)[] } ? R : never;

/** What every wrapper returns: the body, and the answer for anything else (headers, status). */
export interface Result<T> {
  data: T;
  response: Response;
  /** `x-request-id`: quote it when reporting a problem. */
  requestId: string | undefined;
  /**
   * `Helpdesk-Position` of a write that changed the account's data: pass it as `minPosition` to a
   * search that must see this change (read your writes).
   */
  position: string | undefined;
  /**
   * The `ETag` (`"3"`) to send back as `ifMatch`: of the version a read found, or of the version a
   * write made when the server knows it exactly (a create's; an update, reply or note sent with
   * `ifMatch`; a merge or unmerge).
   */
  etag: string | undefined;
}

/** A read of one record, with its version to send back as `If-Match`. */
export type Read<T> = Result<T>;

/** A create, reply or note: the key it was sent with, and whether this is a replay of an earlier one. */
export interface Created<T> extends Result<T> {
  idempotencyKey: string;
  /** The server answered from the stored outcome of an earlier request with this key. */
  replayed: boolean;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
}

export interface CreateOptions extends CallOptions {
  /**
   * One key per logical create; a random UUID unless given. Pass your own (an order number) to
   * make the create safe to repeat across processes: the server answers a repeat with the
   * first outcome, never a second record.
   */
  idempotencyKey?: string;
}

/** How a search orders its matches, and the write it must see (`Helpdesk-Min-Position`). */
export interface SearchOptions extends CallOptions {
  /** `relevance` (the default with words), `created` or `updated` (the default for filters alone). */
  sort?: 'relevance' | 'created' | 'updated';
  order?: 'asc' | 'desc';
  /** A write's `position`: the search waits (up to 5 s) until the index has applied it. */
  minPosition?: string;
}

export interface WriteOptions extends CallOptions {
  /** Change only if the record is still at this version (the `etag` of a read); otherwise a 412. */
  ifMatch?: string;
}
