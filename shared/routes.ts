import * as z from 'zod/mini';
import { agentInsert, agentUpdate } from './schemas/agent';
import { customerInsert, customerUpdate } from './schemas/customer';
import { mediaType } from './schemas/documents';
import { eventListQuery } from './schemas/events';
import { requiredText } from './schemas/fields';
import { listQuery } from './schemas/list-query';
import { ticketAreaSchemas, ticketGroupSchemas, ticketTypeSchemas } from './schemas/lookups';
import { noteInput, replyInput, ticketInsert, ticketUpdate } from './schemas/ticket';
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
import { type Entity, searchInputs } from './store/entity';

/**
 * The route table: the typed contract of the HTTP surface. The CDK stack, the local server,
 * the parity tests and the OpenAPI document (shared/http/openapi.ts) all read it, so they cannot drift.
 * Entries are objects checked by the compiler (`operationId` is a union type: a typo is a
 * compile error). `apiHandler` validates each request against its route's schemas before the
 * operation runs, so handlers receive typed input.
 *
 * - `handler` names the file `functions/<handler>.ts` (exporting `handler`).
 * - `access` decides the DynamoDB grant in the stack: `read` routes get read-only access,
 *   `none` no table at all.
 * - `auth`: `bearer` (access token + clientId, then the rate limit), `basic` (the apiToken,
 *   token endpoint only) or `none` (public, not rate limited: the OpenAPI document, the docs page).
 * - `blobs`: access to the attachments bucket (`read` presigns downloads / reads photos,
 *   `write` stores and deletes objects); absent means none.
 * - `cursors`: hands out signed page cursors (the stack gives it the signing key).
 * - `files`: files of the repository the handler reads at run time (shared/http/static-file.ts);
 *   the stack copies each next to the function's bundle.
 * - `request`: schemas of the path parameters, the query and the JSON body (routes without a
 *   body schema never parse a body: Deskero clients send `Content-Type` on DELETE with none).
 * - `maxBodyBytes`: body limit (413 beyond); 1 MiB unless the route carries files.
 * - `idempotent`: creates something and honours `Idempotency-Key`.
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
  | `view:${string}`
  | `page:${string}`;

export interface Route {
  readonly operationId: string;
  readonly summary: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly handler: string;
  readonly access: 'read' | 'write' | 'none';
  readonly auth: 'bearer' | 'basic' | 'none';
  readonly blobs?: 'read' | 'write';
  readonly cursors?: boolean;
  readonly files?: readonly string[];
  readonly maxBodyBytes?: number;
  readonly idempotent?: boolean;
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
  },
  files?: { blobs: 'write'; maxBodyBytes: number },
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
      request: { params: id, query: noQuery },
      responses: { success: [200, `view:${prefix}`], problems: [...COMMON, 404] },
    },
    {
      operationId: `${prefix}Insert`,
      summary: `Create a ${what}`,
      method: 'POST',
      path: `/${prefix}/insert`,
      handler: `${file}-insert`,
      access: 'write',
      auth: 'bearer',
      ...(schemas.secret ? {} : { idempotent: true as const }),
      ...files,
      request: { query: noQuery, body: schemas.insert },
      responses: schemas.secret
        ? { success: [201, 'secret'] as const, problems: WRITE }
        : { success: [201, 'id'] as const, problems: [...WRITE, 422] },
    },
    {
      operationId: `${prefix}Update`,
      summary: `Change a ${what} (merge: only the fields sent)`,
      method: 'PUT',
      path: `/${prefix}/update/{id}`,
      handler: `${file}-update`,
      access: 'write',
      auth: 'bearer',
      ...files,
      request: { params: id, query: noQuery, body: schemas.update },
      responses: { success: [200, 'id'], problems: WRITE },
    },
    {
      operationId: `${prefix}Delete`,
      summary: `Delete a ${what}`,
      method: 'DELETE',
      path: `/${prefix}/delete/{id}`,
      handler: `${file}-delete`,
      access: 'write',
      auth: 'bearer',
      ...(files ? { blobs: 'write' as const } : {}),
      request: { params: id, query: noQuery },
      responses: { success: [200, 'id'], problems: [...COMMON, 404, 409, 412, UNKNOWN_OUTCOME] },
    },
  ] as const;

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
    request: { query: noQuery },
    responses: { success: [200, 'openapi'], problems: [400, 500] },
  },
  {
    operationId: 'oauthToken',
    summary: 'Exchange the apiToken for an access token (client credentials)',
    method: 'GET',
    path: '/oauth/token',
    handler: 'oauth-token',
    // Token exchange writes the issued (hashed) access token.
    access: 'write',
    auth: 'basic',
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
    cursors: true,
    request: { query: eventListQuery },
    responses: { success: [200, 'feed'], problems: [...COMMON, 410] },
  },
  {
    operationId: 'ticketList',
    summary: 'List or search tickets',
    method: 'GET',
    path: '/ticket/list',
    handler: 'ticket-list',
    access: 'read',
    auth: 'bearer',
    cursors: true,
    request: { query: listQuery(searchInputs(ticketEntity)) },
    responses: { success: [200, 'page:ticket'], problems: COMMON },
  },
  {
    operationId: 'ticketDetail',
    summary: 'Read one ticket with its documents and its most recent replies and notes',
    method: 'GET',
    path: '/ticket/{id}',
    handler: 'ticket-detail',
    access: 'read',
    auth: 'bearer',
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
    cursors: true,
    request: { params: id, query: listQuery({}) },
    responses: { success: [200, 'page:note'], problems: [...COMMON, 404] },
  },
  {
    operationId: 'ticketInsert',
    summary: 'Open a ticket',
    method: 'POST',
    path: '/ticket/insert',
    handler: 'ticket-insert',
    access: 'write',
    auth: 'bearer',
    blobs: 'write',
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
    blobs: 'write',
    maxBodyBytes: FILE_BODY,
    request: { params: id, query: noQuery, body: ticketUpdate },
    responses: { success: [200, 'id'], problems: WRITE },
  },
  {
    operationId: 'ticketDelete',
    summary: 'Delete a ticket with its replies, notes and files',
    method: 'DELETE',
    path: '/ticket/delete/{id}',
    handler: 'ticket-delete',
    access: 'write',
    auth: 'bearer',
    blobs: 'write',
    request: { params: id, query: noQuery },
    responses: { success: [200, 'id'], problems: [...COMMON, 404, 412, UNKNOWN_OUTCOME] },
  },
  {
    operationId: 'ticketReply',
    summary: 'Add a reply',
    method: 'PUT',
    path: '/ticket/reply/{id}',
    handler: 'ticket-reply',
    access: 'write',
    auth: 'bearer',
    blobs: 'write',
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
    idempotent: true,
    request: { params: id, query: noQuery, body: noteInput },
    responses: { success: [200, 'id'], problems: [...WRITE, 422] },
  },
  {
    operationId: 'ticketAttachment',
    summary: 'Download an attached document (302 to a short-lived address)',
    method: 'GET',
    path: '/ticket/{id}/attachment/{documentId}',
    handler: 'ticket-attachment',
    access: 'read',
    auth: 'bearer',
    blobs: 'read',
    request: { params: z.object({ id: z.string(), documentId: z.string() }), query: noQuery },
    responses: { success: [302, 'redirect'], problems: [...COMMON, 404] },
  },
  {
    // Presigns a PUT of a large file to the staging area; the table is not touched.
    operationId: 'ticketAttachmentUpload',
    summary: 'Get a presigned address to upload a file too big for a JSON body',
    method: 'POST',
    path: '/ticket/attachment/upload',
    handler: 'ticket-attachment-upload',
    access: 'read',
    auth: 'bearer',
    blobs: 'write',
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
    },
    { blobs: 'write', maxBodyBytes: PHOTO_BODY },
  ),
  {
    operationId: 'customerPhoto',
    summary: "Read a customer's photo (its bytes with their media type)",
    method: 'GET',
    path: '/customer/photo/{id}',
    handler: 'customer-photo',
    access: 'read',
    auth: 'bearer',
    blobs: 'read',
    request: { params: id, query: noQuery },
    responses: { success: [200, 'bytes'], problems: [...COMMON, 404] },
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
  }),
  {
    operationId: 'webhookDeliveries',
    summary: "Page through a webhook subscription's delivery attempts (30 days), newest first",
    method: 'GET',
    path: '/webhook/{id}/deliveries',
    handler: 'webhook-deliveries',
    access: 'read',
    auth: 'bearer',
    cursors: true,
    request: { params: id, query: listQuery({}) },
    responses: { success: [200, 'page:delivery'], problems: [...COMMON, 404] },
  },
] as const satisfies readonly Route[];

export const routes: readonly Route[] = ROUTES;
export type OperationId = (typeof ROUTES)[number]['operationId'];
export type RouteOf<Op extends OperationId> = Extract<(typeof ROUTES)[number], { operationId: Op }>;

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
  if (r.method === 'GET' && body.startsWith('view:')) return 'detail';
  return undefined;
};

/** `GET /ticket/{id}` — the API Gateway route key of a route. */
export const routeKey = (r: Route): string => `${r.method} ${r.path}`;

export const routeOf = <Op extends OperationId>(operationId: Op): RouteOf<Op> => {
  const found = routes.find((r) => r.operationId === operationId);
  if (!found) throw new Error(`Unknown operation ${operationId}`);
  return found as RouteOf<Op>;
};
