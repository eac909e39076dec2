import * as z from 'zod/mini';
import { agentInsert, agentUpdate } from './schemas/agent';
import { bulkInput, RECORD_BULK_OPS, TICKET_BULK_OPS } from './schemas/bulk';
import { customerInsert, customerUpdate, eraseInput } from './schemas/customer';
import { mediaType } from './schemas/documents';
import { eventListQuery } from './schemas/events';
import { requiredText } from './schemas/fields';
import { listQuery } from './schemas/list-query';
import { ticketAreaSchemas, ticketGroupSchemas, ticketTypeSchemas } from './schemas/lookups';
import { searchQuery } from './schemas/search';
import { mergeInput, noteInput, replyInput, ticketInsert, ticketUpdate } from './schemas/ticket';
import { webhookInsert, webhookUpdate } from './schemas/webhooks';
import {
  agentEntity,
  customerEntity,
  ticketAreaEntity,
  ticketGroupEntity,
  ticketTypeEntity,
  webhookEntity,
} from './store/entities/records';
import { ticketEntity } from './store/entities/ticket';
import type { Entity } from './store/entity';
import { blobKeys } from './store/keys';
import { searchInputs } from './store/search-targets';

/**
 * The route table: the typed contract of the HTTP surface. The CDK stack, the local server,
 * the parity tests and the OpenAPI document (shared/http/openapi.ts) all read it, so they cannot drift.
 * Entries are objects checked by the compiler (`operationId` is a union type: a typo is a
 * compile error). `apiHandler` validates each request against its route's schemas before the
 * operation runs, so handlers receive typed input.
 *
 * - `handler` names the file `functions/<handler>.ts` (exporting `handler`).
 * - `access`: what the route does to the table, `read`, `write` or `none` (no table at all, no
 *   TABLE_NAME). The exact grant comes from `dynamo`.
 * - `dynamo`: the DynamoDB actions the route's operation sends (IAM names; `index:Query` is a
 *   Query of the table's indexes), usually from the named sets of `DB` below. What its
 *   authentication sends comes from `auth` (`AUTH_DYNAMO`); `dynamoActions` joins both, and the
 *   stack grants exactly that (infra/api-function.ts). test/integration/least-privilege.test.ts
 *   records what every route really sends and holds it equal to this, both ways.
 * - `auth`: `bearer` (access token + clientId, then the rate limit), `basic` (the apiToken,
 *   token endpoint only) or `none` (public, not rate limited: the OpenAPI document, the docs page).
 *   Every authenticated route claims rate-limit leases: an UpdateItem of `RATE#` items only.
 * - `blobs`: the object actions the route needs in each area of the attachments bucket
 *   (BLOB_AREAS; a presigned address acts with the signer's permissions, so presigning a GET or a
 *   PUT needs GetObject or PutObject), and `listBucket` where the code reads an object that may be
 *   missing and acts on S3's 404 (which S3 only answers to a caller allowed s3:ListBucket; else
 *   403). Absent means no S3 permission at all.
 * - `cursors`: hands out signed page cursors (the stack gives it the signing key).
 * - `files`: files of the repository the handler reads at run time (shared/http/static-file.ts);
 *   the stack copies each next to the function's bundle.
 * - `request`: schemas of the path parameters, the query and the JSON body (routes without a
 *   body schema never parse a body: Deskero clients send `Content-Type` on DELETE with none).
 * - `maxBodyBytes`: body limit (413 beyond); 1 MiB unless the route carries files.
 * - `idempotent`: honours `Idempotency-Key` (every write but an insert that answers a secret).
 * - `responses`: the success status with what it carries, other success answers if any
 *   (`also`, e.g. `[204, 'empty']`), and the problem statuses it may answer. The OpenAPI
 *   document is generated from them, and the integration tests hold every response to it:
 *   a status not declared here fails the test that received it. A route whose problems
 *   include 412 honours `If-Match`.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteRequest {
  readonly params?: z.ZodMiniType<Record<string, string>>;
  readonly query?: z.ZodMiniType;
  readonly body?: z.ZodMiniType;
  /**
   * The body as the OpenAPI document describes it, where that is stricter than what the route
   * checks itself: a bulk call's operations' bodies, each checked by its own route as it runs.
   */
  readonly documentedBody?: z.ZodMiniType;
}

/**
 * What a success response carries: `{id}`, `{id, secret}` (a new webhook), the token, the upload or redirect answer, a photo's
 * or a page's bytes, nothing (`empty`, a 204), the OpenAPI document, or a view of
 * shared/http/views by name: `view:<resource>` one record, `page:<resource>` a page of them
 * (the names of shared/http/openapi.ts `VIEWS`).
 */
export type ResponseBody =
  | 'id'
  | 'token'
  | 'upload'
  | 'redirect'
  | 'bytes'
  | 'empty'
  | 'openapi'
  | 'html'
  | 'script'
  | 'feed'
  | 'secret'
  | 'bulk'
  | `view:${string}`
  | `page:${string}`;

/**
 * The areas of the attachments bucket, as IAM object patterns built by the key builders
 * (store/keys.ts) with `*` for every variable segment: a route's `blobs` names the areas it
 * touches, and its function's S3 permissions are on those patterns only.
 */
export const BLOB_AREAS = {
  /** Attached documents: `t/<tenant>/ticket/<ticket>/<document>`. */
  documents: blobKeys.document('*', '*', '*'),
  /** Customer photos: `t/<tenant>/customer-photo/<photo>`. */
  photos: blobKeys.photo('*', '*'),
  /** Presigned uploads waiting to be attached: `staging/<tenant>/<upload>`. */
  staging: blobKeys.staging('*', '*'),
  /** Customers' export documents: `exports/<tenant>/<customer>/<job>.json`. */
  exports: blobKeys.customerExport('*', '*', '*'),
  /** Import files: `imports/<tenant>/<job>.ndjson`. */
  imports: blobKeys.importFile('*', '*'),
} as const;
export type BlobArea = keyof typeof BLOB_AREAS;

/** Object actions of the attachments bucket (HeadObject is authorised by s3:GetObject; CopyObject by GetObject of the source and PutObject of the copy). */
export type ObjectAction = 'GetObject' | 'PutObject' | 'DeleteObject' | 'DeleteObjectVersion';
export type BlobAccess = { readonly [A in BlobArea]?: readonly ObjectAction[] } & {
  /** s3:ListBucket on the bucket: a read of a missing object answers 404 (not 403), which the code acts on. */
  readonly listBucket?: true;
  /** s3:ListBucketVersions on the bucket: an erasure removes old versions too (blobs/s3.ts `deleteEveryVersion`). */
  readonly listVersions?: true;
};

/** DynamoDB actions on the table (IAM names without `dynamodb:`). */
export type TableAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'Scan'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'ConditionCheckItem'
  | 'BatchWriteItem';
/** A table action, or `index:<action>` on the table's indexes (`index/*`). */
export type DynamoAction = TableAction | 'index:Query' | 'index:Scan';

/**
 * Named sets of DynamoDB actions, each what one part of the store sends (TransactWriteItems is
 * authorised by the actions of its items: PutItem, UpdateItem, DeleteItem, ConditionCheckItem).
 */
export const DB = {
  /** One record, document or webhook subscription by key. */
  record: ['GetItem'],
  /** A page of a list or search: its index partition, then the records and counts it names by key. */
  listPage: ['index:Query', 'BatchGetItem'],
  /** A ticket's item collection or the change feed's partition, and the records they refer to. */
  collection: ['Query', 'BatchGetItem'],
  /** The item collections of a page's tickets (a list of detail records): one Query each, with the page. */
  collections: ['Query'],
  /** A page of a ticket's replies, notes or documents, or of a subscription's deliveries: the owner read first. */
  partPage: ['GetItem', 'Query'],
  /** The agents that replies and notes name, read with their page. */
  related: ['BatchGetItem'],
  /**
   * A committed creation (domain/commit.ts): the remembered answer of its Idempotency-Key read by
   * key, then one transaction putting the record, its event and guard items and updating counters,
   * references and the ticket it adds to (a ticket's number: one UpdateItem of its sequence first).
   */
  create: ['GetItem', 'PutItem', 'UpdateItem'],
  /** A committed change or deletion: the current state read by key, and a transaction that also deletes what it replaces. */
  write: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
  /** A new pointer at a record it does not count (a reply's or note's agent, a customer's insertByAgentId): checked to exist. */
  uncountedReference: ['ConditionCheckItem'],
} as const satisfies Record<string, readonly DynamoAction[]>;

/**
 * What authenticating costs, by `auth`: a bearer token is checked with its client in one strongly
 * consistent BatchGetItem (auth/access-tokens.ts); Basic credentials by reading the client.
 */
export const AUTH_DYNAMO = {
  bearer: ['BatchGetItem'],
  basic: ['GetItem'],
  none: [],
} as const satisfies Record<Route['auth'], readonly DynamoAction[]>;

/** Object actions of documents sent with a write: put inline ones, copy uploads out of staging, undo and clean up. */
const ATTACHING: BlobAccess = {
  // Put inline documents and copies of uploads; delete them again if the write fails.
  documents: ['PutObject', 'DeleteObject'],
  // Head and copy an upload (GetObject), delete it once attached; an expired one is S3's 404.
  staging: ['GetObject', 'DeleteObject'],
  listBucket: true,
};

export interface Route {
  readonly operationId: string;
  readonly summary: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly handler: string;
  readonly access: 'read' | 'write' | 'none';
  readonly auth: 'bearer' | 'basic' | 'none';
  readonly dynamo?: readonly DynamoAction[];
  readonly blobs?: BlobAccess;
  readonly cursors?: boolean;
  /** Reads the search index (docs/search.md): the stack lets its function run statements on the region's cluster. */
  readonly search?: 'read';
  readonly files?: readonly string[];
  readonly maxBodyBytes?: number;
  readonly idempotent?: boolean;
  /** Sends to a queue: `import`, the import queue (infra/import-pipeline.ts grants SendMessage on it). */
  readonly queue?: 'import';
  /**
   * Also answers every request no route matches (API Gateway's `$default` route; the local
   * dispatcher likewise): `GET /` and `GET /docs/` lead to the docs, anything else is our 404
   * (shared/http/no-route.ts). One route has it: the docs page.
   */
  readonly fallback?: true;
  readonly request: RouteRequest;
  readonly responses: {
    readonly success: readonly [number, ResponseBody];
    readonly also?: readonly (readonly [number, ResponseBody])[];
    readonly problems: readonly number[];
  };
}

/** Routes carrying documents inline: below Lambda's 6 MB invocation payload, with room for headers. */
const FILE_BODY = 5_500_000;
/** Customer bodies may carry a photo of up to 1 MiB as hex (2 MiB of text). */
const PHOTO_BODY = 3_000_000;

const id = z.object({ id: z.string() });
const noQuery = z.object({});

/** Problems any bearer route may answer (500 is a bug: its request id finds it); each route adds its own. */
const COMMON = [400, 401, 429, 500, 503] as const;
/** A route that writes sends a transaction whose answer may not come back in time: 504 (docs/errors.md). */
const UNKNOWN_OUTCOME = 504;
const WRITE = [...COMMON, 404, 409, 412, 413, 415, UNKNOWN_OUTCOME] as const;

/** The five routes every record resource has (customers, agents, lookups). */
/** "a" or "an", by the word's first letter (the resources' names have no silent h). */
const article = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a');

const crud = <const P extends string, const F extends string, const W extends string>(
  prefix: P,
  file: F,
  what: W,
  schemas: {
    insert: z.ZodMiniType;
    update: z.ZodMiniType;
    entity: Entity<never>;
    /** The insert answers `{id, secret}`, and is not idempotent (a replay could not show the secret). */
    secret?: true;
    /** The writes' DynamoDB actions where they differ from DB.create (insert) and DB.write (update, delete). */
    writes?: { readonly [W in 'insert' | 'update' | 'delete']?: readonly DynamoAction[] };
  },
  /**
   * Records carrying a file (a customer's photo): the bucket access of the insert and update. A
   * file no record points at any more is deleted by the cascade worker, so the delete needs none.
   */
  files?: { blobs: BlobAccess; maxBodyBytes: number },
) =>
  [
    {
      operationId: `${prefix}List`,
      summary: `List or search ${what}s`,
      method: 'GET',
      path: `/${prefix}/list`,
      handler: `${file}-list`,
      access: 'read',
      auth: 'bearer',
      dynamo: DB.listPage,
      cursors: true,
      request: { query: listQuery(searchInputs(schemas.entity)) },
      responses: { success: [200, `page:${prefix}`], problems: COMMON },
    },
    {
      operationId: `${prefix}Detail`,
      summary: `Read one ${what}`,
      method: 'GET',
      path: `/${prefix}/{id}`,
      handler: `${file}-detail`,
      access: 'read',
      auth: 'bearer',
      dynamo: DB.record,
      request: { params: id, query: noQuery },
      responses: { success: [200, `view:${prefix}`], problems: [...COMMON, 404] },
    },
    {
      operationId: `${prefix}Insert`,
      summary: `Create ${article(what)} ${what}`,
      method: 'POST',
      path: `/${prefix}/insert`,
      handler: `${file}-insert`,
      access: 'write',
      auth: 'bearer',
      dynamo: schemas.writes?.insert ?? DB.create,
      ...(schemas.secret ? {} : { idempotent: true as const }),
      ...(files ? { blobs: files.blobs, maxBodyBytes: files.maxBodyBytes } : {}),
      request: { query: noQuery, body: schemas.insert },
      responses: schemas.secret
        ? { success: [201, 'secret'] as const, problems: WRITE }
        : { success: [201, 'id'] as const, problems: [...WRITE, 422] },
    },
    {
      operationId: `${prefix}Update`,
      summary: `Change ${article(what)} ${what} (merge: only the fields sent)`,
      method: 'PUT',
      path: `/${prefix}/update/{id}`,
      handler: `${file}-update`,
      access: 'write',
      auth: 'bearer',
      dynamo: schemas.writes?.update ?? DB.write,
      ...(files ? { blobs: files.blobs, maxBodyBytes: files.maxBodyBytes } : {}),
      idempotent: true,
      request: { params: id, query: noQuery, body: schemas.update },
      responses: { success: [200, 'id'], problems: [...WRITE, 422] },
    },
    {
      operationId: `${prefix}Delete`,
      summary: `Delete ${article(what)} ${what}`,
      method: 'DELETE',
      path: `/${prefix}/delete/{id}`,
      handler: `${file}-delete`,
      access: 'write',
      auth: 'bearer',
      dynamo: schemas.writes?.delete ?? DB.write,
      idempotent: true,
      request: { params: id, query: noQuery },
      responses: { success: [200, 'id'], problems: [...COMMON, 404, 409, 412, 422, UNKNOWN_OUTCOME] },
    },
  ] as const;

/** The OpenAPI document `npm run openapi` writes, which `GET /openapi.json` serves as it is. */
export const OPENAPI_DOCUMENT = 'docs/openapi.json';

/** The API reference renderer (docs/decisions.md, Docs): vendored, patched, served from the API itself. */
export const REDOC_FILE = 'vendor/redoc/redoc.standalone.js';

const ROUTES = [
  {
    // Public: what clients and tools read to learn the rest. Served from docs/openapi.json.
    operationId: 'openapi',
    summary: 'This OpenAPI 3.1 document',
    method: 'GET',
    path: '/openapi.json',
    handler: 'openapi',
    access: 'none',
    auth: 'none',
    // Served as a file next to the bundle, not bundled: with its examples it outgrew the bound.
    files: [OPENAPI_DOCUMENT],
    request: { query: noQuery },
    responses: { success: [200, 'openapi'], also: [[304, 'empty']], problems: [400, 500] },
  },
  {
    operationId: 'oauthToken',
    summary: 'Exchange the apiToken for an access token (client credentials)',
    method: 'GET',
    path: '/oauth/token',
    handler: 'oauth-token',
    // Token exchange writes the issued (hashed) access token, checking in the same transaction
    // that the client is still active.
    access: 'write',
    auth: 'basic',
    dynamo: ['PutItem', 'ConditionCheckItem'],
    request: { query: z.object({ grant_type: z.optional(z.string()) }) },
    responses: { success: [200, 'token'], problems: [400, 401, 429, 500, 503, UNKNOWN_OUTCOME] },
  },
  {
    operationId: 'eventList',
    summary: 'Read the change feed: every change of the account, oldest first, from a cursor or an instant',
    method: 'GET',
    path: '/event/list',
    handler: 'event-list',
    access: 'read',
    auth: 'bearer',
    dynamo: DB.collection,
    cursors: true,
    request: { query: eventListQuery },
    responses: { success: [200, 'feed'], problems: [...COMMON, 410] },
  },
  {
    operationId: 'ticketList',
    summary: 'List or search tickets, each as its detail (with view=summary, without the conversation)',
    method: 'GET',
    path: '/ticket/list',
    handler: 'ticket-list',
    access: 'read',
    auth: 'bearer',
    // Records are details (the tickets' collections); `?view=summary` reads the list page alone.
    dynamo: [...DB.listPage, ...DB.collections],
    cursors: true,
    request: { query: listQuery(searchInputs(ticketEntity), { views: true }) },
    responses: { success: [200, 'page:ticket'], problems: COMMON },
  },
  {
    operationId: 'ticketSearch',
    summary:
      'Find tickets by their words and fields (the query language: docs/search.md), each as its detail with highlights',
    method: 'GET',
    path: '/ticket/search',
    handler: 'ticket-search',
    access: 'read',
    auth: 'bearer',
    // The page's tickets as their details read them: each collection, then the records they point at.
    dynamo: [...DB.collections, ...DB.related],
    cursors: true,
    search: 'read',
    request: { query: searchQuery },
    responses: { success: [200, 'page:ticketMatch'], problems: COMMON },
  },
  {
    operationId: 'ticketDetail',
    summary: 'Read one ticket with its documents and its most recent replies and notes',
    method: 'GET',
    path: '/ticket/{id}',
    handler: 'ticket-detail',
    access: 'read',
    auth: 'bearer',
    dynamo: DB.collection,
    request: { params: id, query: noQuery },
    responses: { success: [200, 'view:ticket'], problems: [...COMMON, 404] },
  },
  {
    operationId: 'ticketDocuments',
    summary: "Page through a ticket's own documents (those of attachedDocuments)",
    method: 'GET',
    path: '/ticket/{id}/documents',
    handler: 'ticket-documents',
    access: 'read',
    auth: 'bearer',
    dynamo: DB.partPage,
    cursors: true,
    request: { params: id, query: listQuery({}) },
    responses: { success: [200, 'page:document'], problems: [...COMMON, 404] },
  },
  {
    operationId: 'ticketReplies',
    summary: "Page through a ticket's replies, oldest first",
    method: 'GET',
    path: '/ticket/{id}/replies',
    handler: 'ticket-replies',
    access: 'read',
    auth: 'bearer',
    dynamo: [...DB.partPage, ...DB.related],
    cursors: true,
    request: { params: id, query: listQuery({}) },
    responses: { success: [200, 'page:reply'], problems: [...COMMON, 404] },
  },
  {
    operationId: 'ticketNotes',
    summary: "Page through a ticket's notes, oldest first",
    method: 'GET',
    path: '/ticket/{id}/notes',
    handler: 'ticket-notes',
    access: 'read',
    auth: 'bearer',
    dynamo: [...DB.partPage, ...DB.related],
    cursors: true,
    request: { params: id, query: listQuery({}) },
    responses: { success: [200, 'page:note'], problems: [...COMMON, 404] },
  },
  {
    operationId: 'ticketHistory',
    summary: "Page through a ticket's history: every change, who made it, what it changed; oldest first",
    method: 'GET',
    path: '/ticket/{id}/history',
    handler: 'ticket-history',
    access: 'read',
    auth: 'bearer',
    dynamo: DB.partPage,
    cursors: true,
    request: { params: id, query: listQuery({}) },
    responses: { success: [200, 'page:history'], problems: [...COMMON, 404] },
  },
  {
    operationId: 'ticketInsert',
    summary: 'Open a ticket',
    method: 'POST',
    path: '/ticket/insert',
    handler: 'ticket-insert',
    access: 'write',
    auth: 'bearer',
    dynamo: [...DB.create, ...DB.uncountedReference],
    blobs: ATTACHING,
    maxBodyBytes: FILE_BODY,
    idempotent: true,
    request: { query: noQuery, body: ticketInsert },
    responses: { success: [201, 'id'], problems: [...WRITE, 422] },
  },
  {
    operationId: 'ticketUpdate',
    summary: 'Change a ticket (merge); replies and documents sent are added',
    method: 'PUT',
    path: '/ticket/update/{id}',
    handler: 'ticket-update',
    access: 'write',
    auth: 'bearer',
    dynamo: [...DB.write, ...DB.uncountedReference],
    blobs: ATTACHING,
    maxBodyBytes: FILE_BODY,
    idempotent: true,
    request: { params: id, query: noQuery, body: ticketUpdate },
    responses: { success: [200, 'id'], problems: [...WRITE, 422] },
  },
  {
    operationId: 'ticketDelete',
    summary: 'Delete a ticket: to the trash, where it can be restored until it is purged',
    method: 'DELETE',
    path: '/ticket/delete/{id}',
    handler: 'ticket-delete',
    access: 'write',
    auth: 'bearer',
    // One transaction: the ticket and what counts it go, its trashed-ticket item comes (or, with
    // a retention of 0 days, its cascade item: the cascade worker removes the rest).
    dynamo: DB.write,
    idempotent: true,
    request: { params: id, query: noQuery },
    responses: { success: [200, 'id'], problems: [...COMMON, 404, 409, 412, 422, UNKNOWN_OUTCOME] },
  },
  {
    operationId: 'ticketTrashList',
    summary: 'List the tickets in the trash, most recently deleted first',
    method: 'GET',
    path: '/ticket/trash/list',
    handler: 'ticket-trash-list',
    access: 'read',
    auth: 'bearer',
    dynamo: DB.listPage,
    cursors: true,
    request: { query: listQuery({}) },
    responses: { success: [200, 'page:trashedTicket'], problems: COMMON },
  },
  {
    operationId: 'ticketRestore',
    summary: 'Restore a ticket from the trash, as it was deleted',
    method: 'PUT',
    path: '/ticket/restore/{id}',
    handler: 'ticket-restore',
    access: 'write',
    auth: 'bearer',
    // The trashed-ticket item read and taken out, the ticket put back with its tags, counts and
    // reference counts (each reference checked).
    dynamo: DB.write,
    idempotent: true,
    request: { params: id, query: noQuery },
    responses: { success: [200, 'id'], problems: [...COMMON, 404, 409, 422, UNKNOWN_OUTCOME] },
  },
  {
    operationId: 'ticketPurge',
    summary: 'Remove a ticket in the trash for good, now (its replies, notes and files follow)',
    method: 'DELETE',
    path: '/ticket/purge/{id}',
    handler: 'ticket-purge',
    access: 'write',
    auth: 'bearer',
    // The trashed-ticket item out and the cascade item in, in one transaction.
    dynamo: DB.write,
    idempotent: true,
    request: { params: id, query: noQuery },
    responses: { success: [200, 'id'], problems: [...COMMON, 404, 409, 422, UNKNOWN_OUTCOME] },
  },
  {
    operationId: 'ticketMerge',
    summary: 'Merge tickets into this one: their conversations read as part of its own (undo: unmerge)',
    method: 'PUT',
    path: '/ticket/merge/{id}',
    handler: 'ticket-merge',
    access: 'write',
    auth: 'bearer',
    // The tickets read in one BatchGet; each ticket item changed in one transaction, conditioned
    // on its version, with the tags it adds, the counts and reference counts that move.
    dynamo: [...DB.create, 'BatchGetItem'],
    idempotent: true,
    request: { params: id, query: noQuery, body: mergeInput },
    responses: { success: [200, 'id'], problems: WRITE },
  },
  {
    operationId: 'ticketUnmerge',
    summary: 'Undo the merge of this ticket (within 30 days): both tickets back as they were',
    method: 'PUT',
    path: '/ticket/unmerge/{id}',
    handler: 'ticket-unmerge',
    access: 'write',
    auth: 'bearer',
    // Both ticket items read and changed in one transaction, conditioned on their versions (the
    // tags the merge added go).
    dynamo: DB.write,
    idempotent: true,
    request: { params: id, query: noQuery },
    responses: { success: [200, 'id'], problems: [...COMMON, 404, 409, 412, UNKNOWN_OUTCOME] },
  },
  {
    operationId: 'ticketReply',
    summary: 'Add a reply',
    method: 'PUT',
    path: '/ticket/reply/{id}',
    handler: 'ticket-reply',
    access: 'write',
    auth: 'bearer',
    dynamo: [...DB.create, ...DB.uncountedReference],
    blobs: ATTACHING,
    maxBodyBytes: FILE_BODY,
    idempotent: true,
    request: { params: id, query: noQuery, body: replyInput },
    responses: { success: [200, 'id'], problems: [...WRITE, 422] },
  },
  {
    operationId: 'ticketAddNote',
    summary: 'Add a note',
    method: 'PUT',
    path: '/ticket/addNote/{id}',
    handler: 'ticket-add-note',
    access: 'write',
    auth: 'bearer',
    dynamo: [...DB.create, ...DB.uncountedReference],
    idempotent: true,
    request: { params: id, query: noQuery, body: noteInput },
    responses: { success: [200, 'id'], problems: [...WRITE, 422] },
  },
  {
    operationId: 'ticketBulk',
    summary:
      'Change many tickets in one call: up to 100 inserts, updates, deletes, replies and notes, each run as its own route would and answered with its own outcome',
    method: 'POST',
    path: '/ticket/bulk',
    handler: 'ticket-bulk',
    access: 'write',
    auth: 'bearer',
    // What its operations' routes do (ticketInsert, ticketUpdate, ticketDelete, ticketReply, ticketAddNote).
    dynamo: [...DB.write, ...DB.uncountedReference],
    blobs: ATTACHING,
    maxBodyBytes: FILE_BODY,
    request: {
      query: noQuery,
      body: bulkInput(TICKET_BULK_OPS),
      documentedBody: bulkInput(TICKET_BULK_OPS, {
        insert: ticketInsert,
        update: ticketUpdate,
        reply: replyInput,
        addNote: noteInput,
      }),
    },
    responses: { success: [200, 'bulk'], problems: [...COMMON, 413, 415] },
  },
  {
    operationId: 'ticketAttachment',
    summary: 'Download an attached document (302 to a short-lived address)',
    method: 'GET',
    path: '/ticket/{id}/attachment/{documentId}',
    handler: 'ticket-attachment',
    access: 'read',
    auth: 'bearer',
    // The document and its ticket in one BatchGet (a trashed ticket's documents are not served).
    dynamo: ['BatchGetItem'],
    // Presigns the download: the address acts with this function's s3:GetObject.
    blobs: { documents: ['GetObject'] },
    request: { params: z.object({ id: z.string(), documentId: z.string() }), query: noQuery },
    responses: { success: [302, 'redirect'], problems: [...COMMON, 404] },
  },
  {
    // Presigns a PUT of a large file to the staging area (nothing else: the address acts with this
    // function's permissions); the operation does not touch the table, only its authentication does.
    operationId: 'ticketAttachmentUpload',
    summary: 'Get a presigned address to upload a file too big for a JSON body',
    method: 'POST',
    path: '/ticket/attachment/upload',
    handler: 'ticket-attachment-upload',
    access: 'read',
    auth: 'bearer',
    blobs: { staging: ['PutObject'] },
    request: { query: noQuery, body: z.object({ documentName: requiredText(255), documentType: mediaType }) },
    responses: { success: [201, 'upload'], problems: [...COMMON, 413, 415] },
  },

  {
    // Public: the page carries no data, only the reference and a getting-started walk-through.
    operationId: 'docsPage',
    summary: 'API reference: this document rendered as a page, with a getting-started walk-through',
    method: 'GET',
    path: '/docs',
    handler: 'docs-page',
    access: 'none',
    auth: 'none',
    fallback: true,
    request: { query: noQuery },
    responses: { success: [200, 'html'], problems: [400, 500] },
  },
  {
    operationId: 'docsRenderer',
    summary: "The API reference's renderer (Redoc's standalone script, cached for a year)",
    method: 'GET',
    path: '/docs/redoc.standalone.js',
    handler: 'docs-renderer',
    access: 'none',
    auth: 'none',
    files: [REDOC_FILE],
    request: { query: noQuery },
    responses: { success: [200, 'script'], also: [[304, 'empty']], problems: [400, 500] },
  },

  ...crud(
    'customer',
    'customer',
    'customer',
    {
      insert: customerInsert,
      update: customerUpdate,
      entity: customerEntity,
      // insertByAgentId points at an agent it does not count.
      writes: {
        insert: [...DB.create, ...DB.uncountedReference],
        update: [...DB.write, ...DB.uncountedReference],
      },
    },
    {
      // The photo is put before the transaction and deleted if it fails (the one replaced goes by
      // the cascade worker).
      blobs: { photos: ['PutObject', 'DeleteObject'] },
      maxBodyBytes: PHOTO_BODY,
    },
  ),
  {
    operationId: 'customerBulk',
    summary:
      'Change many customers in one call: up to 100 inserts, updates and deletes, each run as its own route would and answered with its own outcome',
    method: 'POST',
    path: '/customer/bulk',
    handler: 'customer-bulk',
    access: 'write',
    auth: 'bearer',
    // What its operations' routes do (customerInsert, customerUpdate, customerDelete).
    dynamo: [...DB.write, ...DB.uncountedReference],
    blobs: { photos: ['PutObject', 'DeleteObject'] },
    maxBodyBytes: FILE_BODY,
    request: {
      query: noQuery,
      body: bulkInput(RECORD_BULK_OPS),
      documentedBody: bulkInput(RECORD_BULK_OPS, { insert: customerInsert, update: customerUpdate }),
    },
    responses: { success: [200, 'bulk'], problems: [...COMMON, 413, 415] },
  },
  {
    operationId: 'customerPhoto',
    summary: "Read a customer's photo (its bytes with their media type)",
    method: 'GET',
    path: '/customer/photo/{id}',
    handler: 'customer-photo',
    access: 'read',
    auth: 'bearer',
    dynamo: DB.record,
    // A photo replaced meanwhile is gone: S3's 404 is this route's 404.
    blobs: { photos: ['GetObject'], listBucket: true },
    request: { params: id, query: noQuery },
    responses: { success: [200, 'bytes'], problems: [...COMMON, 404] },
  },

  {
    operationId: 'customerSearch',
    summary: 'Find customers by their words (the query language: docs/search.md), each with highlights',
    method: 'GET',
    path: '/customer/search',
    handler: 'customer-search',
    access: 'read',
    auth: 'bearer',
    dynamo: DB.related,
    cursors: true,
    search: 'read',
    request: { query: searchQuery },
    responses: { success: [200, 'page:customerMatch'], problems: COMMON },
  },
  {
    operationId: 'customerHistory',
    summary: "Page through a customer's history: every change, who made it, what it changed; oldest first",
    method: 'GET',
    path: '/customer/{id}/history',
    handler: 'customer-history',
    access: 'read',
    auth: 'bearer',
    dynamo: DB.partPage,
    cursors: true,
    request: { params: id, query: listQuery({}) },
    responses: { success: [200, 'page:history'], problems: [...COMMON, 404] },
  },

  {
    operationId: 'customerExport',
    summary:
      'Export everything of a customer (record, tickets with their conversations, history, files) as one JSON document: a job',
    method: 'POST',
    path: '/customer/export/{id}',
    handler: 'customer-export',
    access: 'write',
    auth: 'bearer',
    // The customer read by key; the job's item put in one transaction with the Idempotency-Key's answer.
    dynamo: ['GetItem', 'PutItem'],
    idempotent: true,
    request: { params: id, query: noQuery },
    responses: { success: [202, 'view:exportJob'], problems: [...COMMON, 404, 409, UNKNOWN_OUTCOME] },
  },
  {
    operationId: 'customerExportStatus',
    summary: "Read an export job: its state and, once done, the document's short-lived download address",
    method: 'GET',
    path: '/customer/export/{id}',
    handler: 'customer-export-status',
    access: 'read',
    auth: 'bearer',
    dynamo: DB.record,
    // The download address is signed by this function (a presigned GET acts with its permissions).
    blobs: { exports: ['GetObject'] },
    request: { params: id, query: noQuery },
    responses: { success: [200, 'view:exportJob'], problems: [...COMMON, 404] },
  },
  {
    operationId: 'customerErase',
    summary:
      "Erase a customer's personal data everywhere (their tickets deleted or anonymised; `dryRun` only counts): a job",
    method: 'POST',
    path: '/customer/erase/{id}',
    handler: 'customer-erase',
    access: 'write',
    auth: 'bearer',
    // The customer read by key; one transaction: its record made an erased mark, its guard items and
    // counters released, the job and the event `customer.erased` put.
    dynamo: DB.write,
    idempotent: true,
    request: { params: id, query: noQuery, body: eraseInput },
    responses: {
      success: [202, 'view:erasureJob'],
      problems: [...COMMON, 404, 409, 413, 415, UNKNOWN_OUTCOME],
    },
  },
  {
    operationId: 'customerEraseStatus',
    summary: 'Read an erasure job: its state and, once done, its receipt (what was changed, per kind)',
    method: 'GET',
    path: '/customer/erase/{id}',
    handler: 'customer-erase-status',
    access: 'read',
    auth: 'bearer',
    dynamo: DB.record,
    request: { params: id, query: noQuery },
    responses: { success: [200, 'view:erasureJob'], problems: [...COMMON, 404] },
  },

  ...crud('agent', 'agent', 'agent', {
    insert: agentInsert,
    update: agentUpdate,
    entity: agentEntity,
  }),
  ...crud('ticketType', 'ticket-type', 'ticket type', { ...ticketTypeSchemas, entity: ticketTypeEntity }),
  ...crud('ticketArea', 'ticket-area', 'ticket area', { ...ticketAreaSchemas, entity: ticketAreaEntity }),
  ...crud('ticketGroup', 'ticket-group', 'ticket group', {
    ...ticketGroupSchemas,
    entity: ticketGroupEntity,
  }),
  // Webhook subscriptions: where the change feed's events are delivered (docs/decisions.md, "Webhooks").
  ...crud('webhook', 'webhook', 'webhook subscription', {
    insert: webhookInsert,
    update: webhookUpdate,
    entity: webhookEntity,
    secret: true,
    // Silent writes (no events, no unique values, no Idempotency-Key on the insert): the record and its
    // count (capped); an update that enables it again also puts its redelivery's item.
    writes: {
      insert: ['PutItem', 'UpdateItem'],
      update: ['GetItem', 'UpdateItem', 'PutItem'],
      delete: ['GetItem', 'DeleteItem', 'UpdateItem'],
    },
  }),
  {
    operationId: 'webhookDeliveries',
    summary: "Page through a webhook subscription's delivery attempts (30 days), newest first",
    method: 'GET',
    path: '/webhook/{id}/deliveries',
    handler: 'webhook-deliveries',
    access: 'read',
    auth: 'bearer',
    dynamo: DB.partPage,
    cursors: true,
    request: { params: id, query: listQuery({}) },
    responses: { success: [200, 'page:delivery'], problems: [...COMMON, 404] },
  },
  {
    operationId: 'importCreate',
    summary:
      'Begin importing a help desk: a job, with a presigned address to upload its NDJSON file to (docs/import.md)',
    method: 'POST',
    path: '/import',
    handler: 'import-create',
    access: 'write',
    auth: 'bearer',
    // The job's item put in one transaction with the Idempotency-Key's answer; the address signed.
    dynamo: ['GetItem', 'PutItem'],
    blobs: { imports: ['PutObject'] },
    idempotent: true,
    request: { query: noQuery },
    responses: { success: [201, 'view:importJob'], problems: [...COMMON, UNKNOWN_OUTCOME] },
  },
  {
    operationId: 'importDetail',
    summary:
      'Read an import job: its state, counts per kind, progress and estimate (while created, a fresh upload address)',
    method: 'GET',
    path: '/import/{id}',
    handler: 'import-detail',
    access: 'read',
    auth: 'bearer',
    dynamo: DB.record,
    // While the job waits for its file, each read signs a new upload address.
    blobs: { imports: ['PutObject'] },
    request: { params: id, query: noQuery },
    responses: { success: [200, 'view:importJob'], problems: [...COMMON, 404] },
  },
  {
    operationId: 'importStart',
    summary: 'Start an import job once its file is uploaded (safe to repeat: a running job goes on)',
    method: 'PUT',
    path: '/import/{id}/start',
    handler: 'import-start',
    access: 'write',
    auth: 'bearer',
    // The job read by key, its file's size read (HeadObject: a missing file is S3's 404), the job
    // moved to running in one transaction with the Idempotency-Key's answer, its first step queued.
    dynamo: ['GetItem', 'PutItem', 'UpdateItem'],
    blobs: { imports: ['GetObject'], listBucket: true },
    queue: 'import',
    idempotent: true,
    request: { params: id, query: noQuery },
    responses: { success: [200, 'view:importJob'], problems: [...COMMON, 404, 409, UNKNOWN_OUTCOME] },
  },
  {
    operationId: 'importCancel',
    summary: 'Cancel an import job: no further line is applied; what it wrote stays',
    method: 'PUT',
    path: '/import/{id}/cancel',
    handler: 'import-cancel',
    access: 'write',
    auth: 'bearer',
    dynamo: ['GetItem', 'PutItem', 'UpdateItem'],
    idempotent: true,
    request: { params: id, query: noQuery },
    responses: { success: [200, 'view:importJob'], problems: [...COMMON, 404, 409, UNKNOWN_OUTCOME] },
  },
  {
    operationId: 'importErrors',
    summary: "Page through an import job's failed lines, in line order, each with its problem",
    method: 'GET',
    path: '/import/{id}/errors',
    handler: 'import-errors',
    access: 'read',
    auth: 'bearer',
    dynamo: DB.partPage,
    cursors: true,
    request: { params: id, query: listQuery({}) },
    responses: { success: [200, 'page:importError'], problems: [...COMMON, 404] },
  },
] as const satisfies readonly Route[];

export const routes: readonly Route[] = ROUTES;
export type OperationId = (typeof ROUTES)[number]['operationId'];
export type RouteOf<Op extends OperationId> = Extract<(typeof ROUTES)[number], { operationId: Op }>;

/**
 * Every DynamoDB action a route's function sends: its authentication's and its operation's,
 * sorted. Rate-limit leases are apart (`claimsRateLeases`): an UpdateItem of RATE# items only.
 */
export const dynamoActions = (r: Route): DynamoAction[] =>
  [...new Set<DynamoAction>([...AUTH_DYNAMO[r.auth], ...(r.dynamo ?? [])])].sort();

/** Authenticated routes claim rate-limit leases (shared/http/rate-limit.ts, auth-throttle.ts). */
export const claimsRateLeases = (r: Route): boolean => r.auth !== 'none';

/** Routes with a body schema parse a JSON body; the others never do. */
export const hasBody = (r: Route): boolean => r.request.body !== undefined;

/**
 * What a route is to the compatibility profiles (shared/http/compat.ts), derived from its entry:
 * a `list` answers pages (under `deskero`: `204 No Content` when a page has no records, and
 * `limit` accepted and ignored), a `detail` reads one resource (`GET` answering its view;
 * under `deskero`: `204` for an unknown id). Every bearer route reads the `Helpdesk-Compat` header.
 */
export type CompatRole = 'list' | 'detail';
export const compatRole = (r: Route): CompatRole | undefined => {
  const [, body] = r.responses.success;
  if (body.startsWith('page:')) return 'list';
  if (r.method === 'GET' && body.startsWith('view:') && !JOB_VIEWS.includes(body)) return 'detail';
  return undefined;
};

/** Views of jobs (an export, an erasure, an import), not records: no Deskero detail, no ETag. */
export const JOB_VIEWS: readonly ResponseBody[] = ['view:exportJob', 'view:erasureJob', 'view:importJob'];

/** `GET /ticket/{id}` — the API Gateway route key of a route. */
export const routeKey = (r: Route): string => `${r.method} ${r.path}`;

export const routeOf = <Op extends OperationId>(operationId: Op): RouteOf<Op> => {
  const found = routes.find((r) => r.operationId === operationId);
  if (!found) throw new Error(`Unknown operation ${operationId}`);
  return found as RouteOf<Op>;
};
