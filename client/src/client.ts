import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { HelpdeskError } from './errors.js';
import { followQuery, type Paged, type PageLike, paged } from './paging.js';
import { type RetryOptions, retryPolicy, sleep } from './retry.js';
import type { paths } from './schema.js';
import { AccessTokens } from './tokens.js';
import { createTransport, type RetryEvent } from './transport.js';
import type {
  CallOptions,
  Created,
  CreateOptions,
  PageOf,
  Path,
  Query,
  Read,
  RecordOf,
  RequestBody,
  Result,
  Schemas,
  SearchOptions,
  SuccessBody,
  WriteOptions,
} from './types.js';

export interface HelpdeskClientOptions {
  /** Where the API is: `https://api.example.com` (a base path is kept: `https://example.com/helpdesk`). */
  baseUrl: string;
  /** The apiToken the operator CLI printed: base64 of `<clientId>:<secret>`. */
  apiToken: string;
  /** The client (account) id; read from the apiToken when absent. */
  clientId?: string;
  /** Retries of 429, 503 and (when safe) 504 / lost connections: defaults in retry.ts. */
  retry?: RetryOptions;
  /** Share of an access token's lifetime after which it is renewed before use. Default 0.9. */
  renewAt?: number;
  /** Headers sent with every request (`Helpdesk-Compat: standard` unless you say otherwise). */
  headers?: Record<string, string>;
  /** Called before each retry (logging, metrics). */
  onRetry?: (event: RetryEvent) => void;
  /** The fetch to send requests with. Default: the global one. */
  fetch?: (request: Request) => Promise<Response>;
  /** Seams for tests: the clock (ms), the wait between retries, the jitter's random source. */
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal | null) => Promise<void>;
  random?: () => number;
}

/** The five routes every record resource has, with the types of its own routes. */
type RecordPrefix = 'customer' | 'agent' | 'ticketType' | 'ticketArea' | 'ticketGroup';
type RecordPaths<P extends RecordPrefix> = {
  list: Extract<`/${P}/list`, Path>;
  detail: Extract<`/${P}/{id}`, Path>;
  insert: Extract<`/${P}/insert`, Path>;
  update: Extract<`/${P}/update/{id}`, Path>;
  delete: Extract<`/${P}/delete/{id}`, Path>;
};
/** A compile error names any of these routes the document lacks. */
type MissingRoutes = Exclude<
  `/${RecordPrefix}/${'list' | '{id}' | 'insert' | 'update/{id}' | 'delete/{id}'}`,
  Path
>;
const everyRecordRouteExists: [MissingRoutes] extends [never] ? true : MissingRoutes = true;
void everyRecordRouteExists;

export interface RecordResource<P extends RecordPrefix> {
  /** Every record of the list or search (`{ email: 'ada@example.com' }`), following `nextQuery`. */
  list(
    query?: Query<RecordPaths<P>['list']>,
    options?: CallOptions,
  ): Paged<RecordOf<RecordPaths<P>['list']>, PageOf<RecordPaths<P>['list']>>;
  get(id: string, options?: CallOptions): Promise<Read<SuccessBody<RecordPaths<P>['detail'], 'get'>>>;
  insert(
    body: RequestBody<RecordPaths<P>['insert'], 'post'>,
    options?: CreateOptions,
  ): Promise<Created<SuccessBody<RecordPaths<P>['insert'], 'post'>>>;
  /** Merge: only the fields sent change. */
  update(
    id: string,
    body: RequestBody<RecordPaths<P>['update'], 'put'>,
    options?: WriteOptions,
  ): Promise<Result<SuccessBody<RecordPaths<P>['update'], 'put'>>>;
  delete(
    id: string,
    options?: WriteOptions,
  ): Promise<Result<SuccessBody<RecordPaths<P>['delete'], 'delete'>>>;
}

type TicketPart = 'replies' | 'notes' | 'documents';
type PartPath<K extends TicketPart> = Extract<`/ticket/{id}/${K}`, Path>;
/** A page of the ticket list whose records are `R` (details, or summaries with `view: 'summary'`). */
export type TicketPage<R> = Omit<PageOf<'/ticket/list'>, 'records'> & { records: R[] };
type TicketListQuery = Query<'/ticket/list'>;

export interface TicketResource {
  /**
   * Every ticket of the list or search (`{ status: 'opened' }`), following `nextQuery`, each as
   * its detail shows it (replies, notes and documents included).
   */
  list(
    query?: TicketListQuery & { view?: 'detail' },
    options?: CallOptions,
  ): Paged<Schemas['Ticket'], TicketPage<Schemas['Ticket']>>;
  /** With `view: 'summary'`: each ticket without its conversation and files, at two requests a page. */
  list(
    query: TicketListQuery & { view: 'summary' },
    options?: CallOptions,
  ): Paged<Schemas['TicketSummary'], TicketPage<Schemas['TicketSummary']>>;
  get(id: string, options?: CallOptions): Promise<Read<SuccessBody<'/ticket/{id}', 'get'>>>;
  insert(
    body: RequestBody<'/ticket/insert', 'post'>,
    options?: CreateOptions,
  ): Promise<Created<SuccessBody<'/ticket/insert', 'post'>>>;
  /** Merge: only the fields sent change; replies and documents sent are added. */
  update(
    id: string,
    body: RequestBody<'/ticket/update/{id}', 'put'>,
    options?: WriteOptions,
  ): Promise<Result<SuccessBody<'/ticket/update/{id}', 'put'>>>;
  delete(id: string, options?: WriteOptions): Promise<Result<SuccessBody<'/ticket/delete/{id}', 'delete'>>>;
  reply(
    id: string,
    body: RequestBody<'/ticket/reply/{id}', 'put'>,
    options?: CreateOptions & WriteOptions,
  ): Promise<Created<SuccessBody<'/ticket/reply/{id}', 'put'>>>;
  addNote(
    id: string,
    body: RequestBody<'/ticket/addNote/{id}', 'put'>,
    options?: CreateOptions & WriteOptions,
  ): Promise<Created<SuccessBody<'/ticket/addNote/{id}', 'put'>>>;
  /**
   * Up to 100 inserts, updates, deletes, replies and notes in one call, each answered with its own
   * outcome (`data.results`, in order). Operations without a `key` get a fresh one, returned in
   * `operations`: send those again to retry safely (what was done replays, nothing twice).
   */
  bulk(
    operations: BulkOperations<'/ticket/bulk'>,
    options?: CallOptions,
  ): Promise<BulkAnswer<'/ticket/bulk'>>;
  /** Every reply of a ticket, oldest first. */
  replies(
    id: string,
    options?: CallOptions,
  ): Paged<RecordOf<PartPath<'replies'>>, PageOf<PartPath<'replies'>>>;
  /** Every note of a ticket, oldest first. */
  notes(id: string, options?: CallOptions): Paged<RecordOf<PartPath<'notes'>>, PageOf<PartPath<'notes'>>>;
  /** Every document of the ticket itself (those of `attachedDocuments`). */
  documents(
    id: string,
    options?: CallOptions,
  ): Paged<RecordOf<PartPath<'documents'>>, PageOf<PartPath<'documents'>>>;
  /**
   * Every ticket matching `query` (the query language: `refund -shipping status:opened`), each as
   * its detail with `highlights`, following `nextQuery` to the last match.
   */
  search(query: string, options?: SearchOptions): Paged<Schemas['TicketMatch'], PageOf<'/ticket/search'>>;
}

/** Customers: the record routes, and their search. */
export interface CustomerResource extends RecordResource<'customer'> {
  /** Up to 100 customer inserts, updates and deletes in one call: as `tickets.bulk`. */
  bulk(
    operations: BulkOperations<'/customer/bulk'>,
    options?: CallOptions,
  ): Promise<BulkAnswer<'/customer/bulk'>>;
  /** Every customer matching `query` (words, `created>…`, `updated<…`), with `highlights`. */
  search(query: string, options?: SearchOptions): Paged<Schemas['CustomerMatch'], PageOf<'/customer/search'>>;
}

type BulkPath = '/ticket/bulk' | '/customer/bulk';
/** The operations of a bulk call, as its body lists them. */
export type BulkOperations<P extends BulkPath> =
  RequestBody<P, 'post'> extends { operations: infer O } ? O : never;
/** A bulk call's answer, and its operations as sent (each with its key). */
export type BulkAnswer<P extends BulkPath> = Result<SuccessBody<P, 'post'>> & {
  operations: BulkOperations<P>;
};

type ImportJob = Schemas['ImportJob'];
/** Import jobs (docs/import.md): a help desk's history from an NDJSON file. */
export interface ImportResource {
  /** A new job, waiting for its file: `data.uploadUrl` takes it (PUT, `content-type: application/x-ndjson`). */
  create(options?: CreateOptions): Promise<Created<ImportJob>>;
  /** Uploads `file` to a new job and starts it: the running job (follow it with `wait`). */
  run(file: Blob | string | Uint8Array, options?: CreateOptions): Promise<Result<ImportJob>>;
  /** The job: status, counts per kind, progress, estimate (while created, a fresh `uploadUrl`). */
  get(id: string, options?: CallOptions): Promise<Result<ImportJob>>;
  /** Starts it once its file is uploaded (safe to repeat: a running job goes on). */
  start(id: string, options?: WriteOptions): Promise<Result<ImportJob>>;
  cancel(id: string, options?: WriteOptions): Promise<Result<ImportJob>>;
  /** Every failed line of the job, in line order, each with its problem. */
  errors(id: string, options?: CallOptions): Paged<Schemas['ImportError'], PageOf<'/import/{id}/errors'>>;
  /** Reads the job every `everyMs` (1000) until it ended, telling `onProgress` each state; answers the last. */
  wait(
    id: string,
    options?: CallOptions & { everyMs?: number; onProgress?: (job: ImportJob) => void },
  ): Promise<ImportJob>;
}

/** An import job that ended, or not yet. */
const ENDED = new Set(['completed', 'cancelled', 'failed']);

export interface HelpdeskClient {
  tickets: TicketResource;
  imports: ImportResource;
  customers: CustomerResource;
  agents: RecordResource<'agent'>;
  ticketTypes: RecordResource<'ticketType'>;
  ticketAreas: RecordResource<'ticketArea'>;
  ticketGroups: RecordResource<'ticketGroup'>;
  /**
   * The openapi-fetch client underneath, with the same auth, retries and Idempotency-Keys, for
   * routes without a wrapper (attachments, photos, uploads). It returns `{ data, error, response }`
   * and throws nothing: `HelpdeskError.fromResponse(response)` makes an error of a failure.
   */
  api: Client<paths>;
  /** Access tokens exchanged so far. */
  readonly tokenExchanges: number;
}

/**
 * Routes that take an `Idempotency-Key` (every write but the webhook insert, which answers its
 * secret once; checked against the document by a test): the client sends a fresh key with each
 * call it makes, and the same key with each retry of it.
 */
export const IDEMPOTENT_ROUTES: readonly string[] = [
  '/ticket/insert',
  '/ticket/update/{id}',
  '/ticket/delete/{id}',
  '/ticket/reply/{id}',
  '/ticket/addNote/{id}',
  '/ticket/restore/{id}',
  '/ticket/purge/{id}',
  '/ticket/merge/{id}',
  '/ticket/unmerge/{id}',
  ...['customer', 'agent', 'ticketType', 'ticketArea', 'ticketGroup'].flatMap((r) => [
    `/${r}/insert`,
    `/${r}/update/{id}`,
    `/${r}/delete/{id}`,
  ]),
  '/customer/export/{id}',
  '/customer/erase/{id}',
  '/webhook/update/{id}',
  '/webhook/delete/{id}',
  '/import',
  '/import/{id}/start',
  '/import/{id}/cancel',
];

const newKey = (): string => globalThis.crypto.randomUUID();

/** Sets a fresh Idempotency-Key on creates that carry none (calls through `api` included). */
const idempotencyKeys: Middleware = {
  onRequest({ request, schemaPath }) {
    if (IDEMPOTENT_ROUTES.includes(schemaPath) && !request.headers.has('idempotency-key')) {
      request.headers.set('idempotency-key', newKey());
    }
    return request;
  },
};

/** The clientId inside an apiToken (base64 of `<clientId>:<secret>`). */
export const clientIdOf = (apiToken: string): string => {
  let decoded = '';
  try {
    decoded = atob(apiToken);
  } catch {
    // Not base64: reported below.
  }
  const colon = decoded.indexOf(':');
  if (colon <= 0) throw new Error('The apiToken is not base64 of <clientId>:<secret>: pass clientId.');
  return decoded.slice(0, colon);
};

/** What openapi-fetch answers, seen without the per-route types (the wrappers restore them). */
interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}
interface LooseInit {
  params?: { path?: Record<string, string>; query?: Record<string, unknown> };
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}
type LooseCall = (path: string, init: LooseInit) => Promise<FetchResult>;
type LooseApi = Record<'GET' | 'POST' | 'PUT' | 'DELETE', LooseCall>;

const result = <T>({ data, error, response }: FetchResult): Result<T> => {
  if (!response.ok) throw new HelpdeskError(response, error);
  return {
    data: data as T,
    response,
    requestId: response.headers.get('x-request-id') ?? undefined,
    position: response.headers.get('helpdesk-position') ?? undefined,
    etag: response.headers.get('etag') ?? undefined,
  };
};

const headersOf = (
  options: (CreateOptions & WriteOptions) | undefined,
  key?: string,
): Record<string, string> => ({
  ...options?.headers,
  ...(options?.ifMatch === undefined ? {} : { 'If-Match': options.ifMatch }),
  ...(key === undefined ? {} : { 'Idempotency-Key': key }),
});

/**
 * A typed client of the help-desk API: openapi-fetch over the generated types, plus the access
 * token (exchanged and renewed), retries with backoff, Idempotency-Keys on creates, lists that
 * iterate every record, ETags, and `HelpdeskError` for every failure.
 */
export const createHelpdeskClient = (options: HelpdeskClientOptions): HelpdeskClient => {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const clientId = options.clientId ?? clientIdOf(options.apiToken);
  const shared = {
    fetch: options.fetch ?? ((request: Request) => globalThis.fetch(request)),
    retry: retryPolicy(options.retry),
    sleep: options.sleep ?? sleep,
    random: options.random ?? Math.random,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
  };

  const tokenApi = createClient<paths>({ baseUrl, fetch: createTransport(shared) });
  const tokens = new AccessTokens({
    now: options.now ?? Date.now,
    renewAt: options.renewAt ?? 0.9,
    exchange: async () => {
      const answer = await tokenApi.GET('/oauth/token', {
        params: { query: { grant_type: 'client_credentials' } },
        headers: { Authorization: `Basic ${options.apiToken}` },
      });
      return result<SuccessBody<'/oauth/token', 'get'>>(answer).data;
    },
  });

  const api = createClient<paths>({
    baseUrl,
    fetch: createTransport({
      ...shared,
      // The document's (standard) answers, whatever profile the account is pinned to: a
      // `deskero` profile answers 204 for an empty list or an unknown id, which no type here expects.
      headers: { 'Helpdesk-Compat': 'standard', ...options.headers },
      auth: { tokens, clientId },
    }),
  });
  api.use(idempotencyKeys);
  const loose = api as unknown as LooseApi;

  const read = async <T>(path: Path, id: string, call?: CallOptions): Promise<Read<T>> => {
    return result<T>(
      await loose.GET(path, { params: { path: { id } }, headers: headersOf(call), ...signalOf(call) }),
    );
  };

  const create = async <T>(
    method: 'POST' | 'PUT',
    path: Path,
    id: string | undefined,
    body: unknown,
    call?: CreateOptions & WriteOptions,
  ): Promise<Created<T>> => {
    const key = call?.idempotencyKey ?? newKey();
    const answer = result<T>(
      await loose[method](path, {
        ...(id === undefined ? {} : { params: { path: { id } } }),
        body,
        headers: headersOf(call, key),
        ...signalOf(call),
      }),
    );
    return {
      ...answer,
      idempotencyKey: key,
      replayed: answer.response.headers.get('idempotent-replayed') === 'true',
    };
  };

  const write = async <T>(
    method: 'PUT' | 'DELETE',
    path: Path,
    id: string,
    body: unknown,
    call?: WriteOptions,
  ): Promise<Result<T>> =>
    result<T>(
      await loose[method](path, {
        params: { path: { id } },
        ...(body === undefined ? {} : { body }),
        headers: headersOf(call),
        ...signalOf(call),
      }),
    );

  /** A bulk call, each operation keyed (its own key, or a fresh one) so that sending them again is safe. */
  const bulk = async <P extends BulkPath>(
    path: P,
    operations: BulkOperations<P>,
    call?: CallOptions,
  ): Promise<BulkAnswer<P>> => {
    const keyed = (operations as { key?: string }[]).map((o) => ({
      ...o,
      key: o.key ?? newKey(),
    })) as BulkOperations<P>;
    const answer = result<SuccessBody<P, 'post'>>(
      await loose.POST(path, { body: { operations: keyed }, headers: headersOf(call), ...signalOf(call) }),
    );
    return { ...answer, operations: keyed };
  };

  /** A list (its path template and path id, if any) as every record it holds. */
  const list = <R, P extends PageLike<R>>(
    template: Path,
    id: string | undefined,
    query: object | undefined,
    call?: CallOptions,
  ): Paged<R, P> => {
    const listPath = id === undefined ? template : template.replace('{id}', id);
    return paged<R, P>(
      async (next) => {
        const { data } = result<Record<string, P>>(
          await loose.GET(template, {
            params: { ...(id === undefined ? {} : { path: { id } }), query: next ?? { ...query } },
            headers: headersOf(call),
            ...signalOf(call),
          }),
        );
        // The page sits in the list's wrapper (`{ "customer": page }`), its only key.
        const page = Object.values(data)[0];
        if (!page) throw new Error(`${listPath} answered no page`);
        return page;
      },
      (nextQuery) => followQuery(nextQuery, baseUrl, listPath),
    );
  };

  /** A search as every match, its options as the query's parameters and the position's header. */
  const search = <R, P extends PageLike<R>>(
    path: Path,
    query: string,
    options?: SearchOptions,
  ): Paged<R, P> => {
    const { sort, order, minPosition, ...call } = options ?? {};
    return list<R, P>(
      path,
      undefined,
      { query, ...(sort ? { sort } : {}), ...(order ? { order } : {}) },
      minPosition ? { ...call, headers: { ...call.headers, 'Helpdesk-Min-Position': minPosition } } : call,
    );
  };

  const records = <P extends RecordPrefix>(prefix: P): RecordResource<P> =>
    ({
      list: (query, options) => list(`/${prefix}/list`, undefined, query, options),
      get: (id, options) => read(`/${prefix}/{id}`, id, options),
      insert: (body, options) => create('POST', `/${prefix}/insert`, undefined, body, options),
      update: (id, body, options) => write('PUT', `/${prefix}/update/{id}`, id, body, options),
      delete: (id, options) => write('DELETE', `/${prefix}/delete/{id}`, id, undefined, options),
    }) as RecordResource<P>;

  const tickets: TicketResource = {
    // Its records are those `query.view` names (the overloads say which).
    list: ((query?: TicketListQuery, options?: CallOptions) =>
      list('/ticket/list', undefined, query, options)) as TicketResource['list'],
    get: (id, options) => read('/ticket/{id}', id, options),
    insert: (body, options) => create('POST', '/ticket/insert', undefined, body, options),
    update: (id, body, options) => write('PUT', '/ticket/update/{id}', id, body, options),
    delete: (id, options) => write('DELETE', '/ticket/delete/{id}', id, undefined, options),
    reply: (id, body, options) => create('PUT', '/ticket/reply/{id}', id, body, options),
    addNote: (id, body, options) => create('PUT', '/ticket/addNote/{id}', id, body, options),
    bulk: (operations, options) => bulk('/ticket/bulk', operations, options),
    replies: (id, options) => list('/ticket/{id}/replies', id, undefined, options),
    notes: (id, options) => list('/ticket/{id}/notes', id, undefined, options),
    documents: (id, options) => list('/ticket/{id}/documents', id, undefined, options),
    search: (query, options) => search('/ticket/search', query, options),
  };

  const getImport = async (id: string, call?: CallOptions) =>
    result<ImportJob>(
      await loose.GET('/import/{id}', {
        params: { path: { id } },
        headers: headersOf(call),
        ...signalOf(call),
      }),
    );
  const imports: ImportResource = {
    create: (options) => create('POST', '/import', undefined, undefined, options),
    run: async (file, options) => {
      const job = await imports.create(options);
      const put = await shared.fetch(
        new Request(job.data.uploadUrl as string, {
          method: 'PUT',
          body: file as Blob,
          headers: { 'content-type': 'application/x-ndjson' },
          ...signalOf(options),
        }),
      );
      if (!put.ok) throw new Error(`the upload of the import file failed: ${put.status} ${await put.text()}`);
      return imports.start(job.data.id, options);
    },
    get: getImport,
    start: (id, options) => write('PUT', '/import/{id}/start', id, undefined, options),
    cancel: (id, options) => write('PUT', '/import/{id}/cancel', id, undefined, options),
    errors: (id, options) => list('/import/{id}/errors', id, undefined, options),
    wait: async (id, options) => {
      const { everyMs = 1000, onProgress, ...call } = options ?? {};
      for (;;) {
        const { data } = await getImport(id, call);
        onProgress?.(data);
        if (ENDED.has(data.status)) return data;
        await shared.sleep(everyMs);
      }
    },
  };

  return {
    tickets,
    imports,
    customers: {
      ...records('customer'),
      search: (query, options) => search('/customer/search', query, options),
      bulk: (operations, options) => bulk('/customer/bulk', operations, options),
    },
    agents: records('agent'),
    ticketTypes: records('ticketType'),
    ticketAreas: records('ticketArea'),
    ticketGroups: records('ticketGroup'),
    api,
    get tokenExchanges() {
      return tokens.exchanges;
    },
  };
};

const signalOf = (options: CallOptions | undefined): { signal?: AbortSignal } =>
  options?.signal ? { signal: options.signal } : {};
