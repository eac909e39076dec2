import * as z from 'zod/mini';
import pkg from '../../package.json' with { type: 'json' };
import { FILE_HEADERS } from '../blobs/file-headers';
import { PHOTO_MEDIA_TYPES } from '../blobs/photos';
import { compatRole, JOB_VIEWS, type ResponseBody, type Route, routes } from '../routes';
import { documentInput } from '../schemas/documents';
import { reference } from '../schemas/fields';
import { fieldError, problemView } from '../schemas/problems';
import { noteInput, replyInput, STATUSES } from '../schemas/ticket';
import {
  agentView,
  bulkView,
  customerMatchView,
  customerView,
  deliveryView,
  documentView,
  erasureJobView,
  eventFeedView,
  exportJobView,
  historyEntryView,
  idView,
  importErrorView,
  importJobView,
  labelsView,
  noteView,
  openApiDocumentView,
  pageView,
  redirectView,
  replyView,
  sourceView,
  statusView,
  ticketAreaView,
  ticketDetailView,
  ticketGroupView,
  ticketListRecord,
  ticketMatchView,
  ticketSummaryView,
  ticketTypeView,
  tokenView,
  trashedTicketView,
  uploadView,
  webhookSecretView,
  webhookView,
} from '../schemas/views';
import { createdOf } from './location';
import { CAPTURED, type Examples, problemExamples, withOperationExamples } from './openapi-examples';

/**
 * The OpenAPI 3.1 document of the API, generated from the route table (shared/routes.ts) and
 * the zod schemas: request schemas as the routes declare them (`io: 'input'`: what a client may
 * send), response schemas from shared/schemas/views.ts and shared/schemas/problems.ts
 * (`io: 'output'`), with zod's own JSON Schema generator (draft 2020-12, OpenAPI 3.1's
 * dialect). Nothing in it is written by hand but the prose. `npm run openapi` writes it to
 * docs/openapi.json, which `GET /openapi.json` serves; the integration tests validate every
 * response against it (test/helpers/contract.ts).
 *
 * Imported only by the generator script, the openapi tests and the contract validator: it pulls
 * every response schema, which no function bundle needs.
 */
export type JsonObject = Record<string, unknown>;

/** One view of shared/http/views by the name routes give it (`view:<name>`, `page:<name>`). */
interface ViewSpec {
  /** Component name of one record. */
  readonly component: string;
  readonly schema: z.ZodMiniType;
  /** The key its list wrapper has (`{ <key>: { totalRecords, … } }`). */
  readonly pageKey: string;
}

export const VIEWS: Record<string, ViewSpec> = {
  ticket: { component: 'Ticket', schema: ticketDetailView, pageKey: 'ticket' },
  customer: { component: 'Customer', schema: customerView, pageKey: 'customer' },
  agent: { component: 'Agent', schema: agentView, pageKey: 'agent' },
  ticketType: { component: 'TicketType', schema: ticketTypeView, pageKey: 'type' },
  ticketArea: { component: 'TicketArea', schema: ticketAreaView, pageKey: 'area' },
  ticketGroup: { component: 'TicketGroup', schema: ticketGroupView, pageKey: 'group' },
  reply: { component: 'Reply', schema: replyView, pageKey: 'reply' },
  note: { component: 'Note', schema: noteView, pageKey: 'note' },
  document: { component: 'Document', schema: documentView, pageKey: 'document' },
  webhook: { component: 'Webhook', schema: webhookView, pageKey: 'webhook' },
  delivery: { component: 'WebhookDelivery', schema: deliveryView, pageKey: 'delivery' },
  trashedTicket: { component: 'TrashedTicket', schema: trashedTicketView, pageKey: 'ticket' },
  history: { component: 'HistoryEntry', schema: historyEntryView, pageKey: 'history' },
  exportJob: { component: 'ExportJob', schema: exportJobView, pageKey: 'export' },
  erasureJob: { component: 'ErasureJob', schema: erasureJobView, pageKey: 'erasure' },
  importJob: { component: 'ImportJob', schema: importJobView, pageKey: 'import' },
  importError: { component: 'ImportError', schema: importErrorView, pageKey: 'error' },
  ticketMatch: { component: 'TicketMatch', schema: ticketMatchView, pageKey: 'ticket' },
  customerMatch: { component: 'CustomerMatch', schema: customerMatchView, pageKey: 'customer' },
};

/**
 * A page holds the view of each record but for tickets, whose records are details or, with
 * `?view=summary`, summaries (`TicketSummary`, also the tickets of the change feed).
 */
const PAGE_RECORDS: Record<string, z.ZodMiniType> = { ticket: ticketListRecord };
const MORE_COMPONENTS: { component: string; schema: z.ZodMiniType }[] = [
  { component: 'TicketSummary', schema: ticketSummaryView },
];

/** Other response bodies by the route table's names. */
const BODIES: Partial<Record<ResponseBody, { component: string; schema: z.ZodMiniType }>> = {
  id: { component: 'Id', schema: idView },
  token: { component: 'Token', schema: tokenView },
  upload: { component: 'Upload', schema: uploadView },
  redirect: { component: 'Redirect', schema: redirectView },
  openapi: { component: 'OpenApiDocument', schema: openApiDocumentView },
  feed: { component: 'EventFeed', schema: eventFeedView },
  secret: { component: 'WebhookSecret', schema: webhookSecretView },
  bulk: { component: 'BulkResults', schema: bulkView },
};

/** A position (search/positions.ts): the sort key of an event of the feed. */
const POSITION_PATTERN = '^[0-9]{17}#[0-9A-Za-z]{1,64}$';

const pascal = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** Every status some route may answer with a problem, in order. */
const problemStatuses = (table: readonly Route[]): number[] =>
  [...new Set(table.flatMap((r) => r.responses.problems))].sort((a, b) => a - b);

/** Response schemas, generated in one go so nested views are references (a ticket's agents). */
const responseSchemas = (table: readonly Route[]): Record<string, JsonObject> => {
  const registry = z.registry<{ id: string }>();
  const add = (schema: z.ZodMiniType, id: string) => {
    if (!registry.has(schema)) registry.add(schema, { id });
  };
  add(labelsView, 'Labels');
  add(statusView, 'Status');
  add(sourceView, 'Source');
  add(fieldError, 'FieldError');
  for (const { component, schema } of [...Object.values(VIEWS), ...MORE_COMPONENTS]) add(schema, component);
  for (const route of table) {
    for (const [, body] of successes(route)) {
      const kind = bodyKind(body);
      if (kind.page) add(pageOf(kind.page), `${VIEWS[kind.page]?.component}Page`);
      else if (kind.fixed) add(kind.fixed.schema, kind.fixed.component);
    }
  }
  for (const status of problemStatuses(table)) add(problemView(status), `Problem${status}`);
  return generate(registry, 'output');
};

const pages = new Map<string, z.ZodMiniType>();
/** The list wrapper of a view: `{ <key>: { totalRecords, recordsPerPage, previousQuery, nextQuery, records } }`. */
const pageOf = (name: string): z.ZodMiniType => {
  const view = VIEWS[name];
  if (!view) throw new Error(`No view named ${name} (shared/http/openapi.ts VIEWS)`);
  let page = pages.get(name);
  if (!page) {
    const record = PAGE_RECORDS[name] ?? view.schema;
    page = z.object({ [view.pageKey]: pageView(record) });
    pages.set(name, page);
  }
  return page;
};

type Kind =
  | { page: string; view?: undefined; fixed?: undefined }
  | { view: string; page?: undefined; fixed?: undefined }
  | { fixed: { component: string; schema: z.ZodMiniType } | undefined; page?: undefined; view?: undefined };

const bodyKind = (body: ResponseBody): Kind => {
  if (body.startsWith('page:')) return { page: body.slice('page:'.length) };
  if (body.startsWith('view:')) {
    const name = body.slice('view:'.length);
    if (!VIEWS[name]) throw new Error(`No view named ${name} (shared/http/openapi.ts VIEWS)`);
    return { view: name };
  }
  return { fixed: BODIES[body] };
};

/** Under the `deskero` profile lists without records and details of unknown ids answer 204 (compat.ts). */
const successes = (route: Route): (readonly [number, ResponseBody])[] => [
  route.responses.success,
  ...(route.responses.also ?? []),
  ...(compatRole(route) ? [[204, 'empty'] as const] : []),
];

/** A route's body as the document describes it (routes.ts `documentedBody`). */
const documentedBodyOf = (route: Route) => route.request.documentedBody ?? route.request.body;

/**
 * Request bodies, as a client may send them (`io: 'input'`: before defaults and transforms);
 * parts several bodies share are components of their own. Also answers each body's component.
 */
const requestSchemas = (table: readonly Route[]) => {
  const registry = z.registry<{ id: string }>();
  registry.add(reference, { id: 'Reference' });
  registry.add(documentInput, { id: 'DocumentInput' });
  registry.add(replyInput, { id: 'ReplyInput' });
  registry.add(noteInput, { id: 'NoteInput' });
  for (const route of table) {
    const body = documentedBodyOf(route);
    if (body && !registry.has(body)) registry.add(body, { id: `${pascal(route.operationId)}Body` });
  }
  const nameOf = (schema: z.ZodMiniType): string => registry.get(schema)?.id as string;
  return { schemas: generate(registry, 'input'), nameOf };
};

const generate = (registry: z.core.$ZodRegistry<{ id: string }>, io: 'input' | 'output') => {
  const { schemas } = z.toJSONSchema(registry, {
    io,
    uri: (id) => `#/components/schemas/${id}`,
    // Refinements (one search at a time, exactly one document content) have no JSON Schema
    // form; the operations' descriptions say them.
    unrepresentable: 'any',
  }) as { schemas: Record<string, JsonObject> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return schemas;
};

/** Inline JSON Schema of one request part (path parameters, query). */
const inputSchema = (schema: z.ZodMiniType): JsonObject => {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonObject;
  delete json.$schema;
  return json;
};

const QUERY_NOTES: Record<string, string> = {
  page: 'Page number, from 1 (default 1). A page past the end has no records.',
  cursor: 'Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are.',
  view: 'What each record is: `detail` (the default) the ticket as `GET /ticket/{id}` answers it, conversation and files included (with its truncation flags); `summary` every field but `replies`, `ticketNotes` and `attachedDocuments`, at two DynamoDB requests a page. Page links keep it.',
  grant_type: 'Must be `client_credentials`.',
  managedDate:
    'Tickets changed at or after this instant (milliseconds since the epoch), most recently changed first: incremental sync. Not with another search field.',
  'eventList.since':
    'Events committed at or after this instant (milliseconds since the epoch); a `cursor` takes precedence.',
  'eventList.type': 'Only events of these types, comma-separated (e.g. `ticket.created,ticket.replied`).',
};
/**
 * What a query parameter is, as the document declares it where the schema's input form (a string:
 * every query value arrives as text) says less than the server accepts: integers and enums, so a
 * typed client offers `page: 2` and refuses `status: 'bogus'`. The server's parsing is the
 * schema's, unchanged (test/unit/openapi-query-types.test.ts checks each declared value is one the
 * server accepts, and that values outside are refused).
 */
const MILLISECONDS: JsonObject = { type: 'integer', format: 'int64' };
export const DECLARED_QUERY: Record<string, JsonObject> = {
  page: { type: 'integer', minimum: 1, maximum: 9_999_999, default: 1 },
  status: { type: 'string', enum: [...STATUSES] },
  priority: { type: 'integer', enum: [0, 1] },
  managedDate: MILLISECONDS,
  since: { ...MILLISECONDS, minimum: 0 },
  grant_type: { type: 'string', enum: ['client_credentials'] },
};
/** Declared required though the schema lets them out (the operation answers 400 without them). */
const REQUIRED_QUERY = new Set(['grant_type']);

const searchNote = (name: string) =>
  `Exact-match search by \`${name}\` (one search field at a time; unknown parameters are a 400).`;

const parametersOf = (route: Route): JsonObject[] => {
  const parameters: JsonObject[] = [];
  const { params, query } = route.request;
  if (params) {
    const json = inputSchema(params) as { properties: Record<string, JsonObject> };
    for (const [name, schema] of Object.entries(json.properties)) {
      parameters.push({
        name,
        in: 'path',
        required: true,
        description:
          name === 'id'
            ? 'Id of the record (an unknown or malformed one is a 404).'
            : `Id of the ${name.replace(/Id$/, '')}.`,
        schema,
      });
    }
  }
  if (query) {
    const json = inputSchema(query) as { properties?: Record<string, JsonObject>; required?: string[] };
    const isList = json.properties?.page !== undefined && route.cursors === true;
    for (const [name, schema] of Object.entries(json.properties ?? {})) {
      parameters.push({
        name,
        in: 'query',
        required: REQUIRED_QUERY.has(name) || (json.required?.includes(name) ?? false),
        description:
          QUERY_NOTES[`${route.operationId}.${name}`] ??
          QUERY_NOTES[name] ??
          (isList ? searchNote(name) : name),
        schema: DECLARED_QUERY[name] ?? schema,
      });
    }
  }
  if (route.idempotent) parameters.push(ref('parameters', 'IdempotencyKey'));
  if (route.responses.problems.includes(412)) parameters.push(ref('parameters', 'IfMatch'));
  if (route.auth === 'bearer') parameters.push(ref('parameters', 'HelpdeskCompat'));
  if (route.search) parameters.push(ref('parameters', 'HelpdeskMinPosition'));
  return parameters;
};

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  304: 'Not Modified: the client holds this version',
  302: 'Found',
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

const PROBLEM_NOTES: Record<number, string> = {
  400: 'The request is invalid: malformed JSON, an invalid body (`errors` lists each field), a bad query or path parameter, a reference to a record that does not exist.',
  401: 'Missing, invalid, expired or revoked credentials; the same answer whatever was wrong.',
  404: 'No such record in this account (an unknown, foreign or malformed id).',
  409: 'The write contradicts the data (a duplicate e-mail or name, a record still in use), or a request with the same Idempotency-Key is still running.',
  412: '`If-Match` names no version the record has; nothing changed.',
  413: 'The body, a file or the write is over a limit; nothing written.',
  415: 'The body is not `application/json`.',
  422: 'The Idempotency-Key was already used for a different request.',
  429: 'Over a rate limit (requests, failed authentications, token exchanges); retry after `Retry-After`.',
  500: 'A bug; the `x-request-id` finds it in the logs.',
  503: 'The store is unavailable or the record too busy; nothing was written. Retry after `Retry-After`.',
  504: 'A write was sent and the store did not answer in time: it may or may not have been applied. Retry with the same Idempotency-Key, or read the record.',
};

/** Headers of every response, per status class: the request id, and the rate limit's once admitted. */
const rateLimitHeaders = (required: boolean): Record<string, JsonObject> =>
  required
    ? {
        'RateLimit-Limit': ref('headers', 'RateLimitLimit'),
        'RateLimit-Remaining': ref('headers', 'RateLimitRemaining'),
        'RateLimit-Reset': ref('headers', 'RateLimitReset'),
      }
    : Object.fromEntries(
        Object.entries(HEADERS)
          .filter(([name]) => name.startsWith('RateLimit'))
          .map(([name, header]) => [
            `RateLimit-${name.slice('RateLimit'.length)}`,
            {
              ...header,
              required: false,
              description: `${header.description} Present once the client is authenticated and admitted.`,
            },
          ]),
      );

const integer = { type: 'integer', minimum: 0 };

const HEADERS: Record<string, JsonObject & { description: string }> = {
  XRequestId: {
    description:
      'Id of this request (API Gateway request id), also in the logs: quote it when reporting a problem.',
    required: true,
    schema: { type: 'string', minLength: 1 },
  },
  RateLimitLimit: {
    description: "Requests this client may send in the current minute's window.",
    required: true,
    schema: integer,
  },
  RateLimitRemaining: {
    description: "Requests left in the current window (this instance's view: exact with one instance).",
    required: true,
    schema: integer,
  },
  RateLimitReset: {
    description: 'Seconds until the next window opens.',
    required: true,
    schema: { type: 'integer', minimum: 1, maximum: 60 },
  },
  RetryAfter: {
    description: 'Seconds to wait before retrying.',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  WWWAuthenticate: {
    description: 'The scheme to authenticate with: `Bearer realm="helpdesk"` (`Basic` on /oauth/token).',
    required: true,
    schema: { type: 'string', pattern: '^(Bearer|Basic) realm="helpdesk"$' },
  },
  ETag: {
    description:
      'Strong entity-tag of the version read; send it back as `If-Match` to update or delete only that version.',
    required: true,
    schema: { type: 'string', pattern: '^"(0|[1-9][0-9]*)"$' },
  },
  CreatedLocation: {
    description:
      'The absolute address the created resource is read at (for an upload: the address to PUT the file to).',
    required: true,
    schema: { type: 'string', format: 'uri' },
  },
  CreatedETag: {
    description:
      'Strong entity-tag of the version the write created (`"1"`): send it as `If-Match` to update or delete only that version, without reading first.',
    required: true,
    schema: { type: 'string', const: '"1"' },
  },
  WrittenETag: {
    description:
      'Strong entity-tag of the version this write gave the record in the path (for a reply or note: the ticket), sent when the server knows it exactly: always after a merge or unmerge, and after an update, reply or note sent with `If-Match` (naming one version, for a reply or note, which does not read the ticket). Send it as the next write’s `If-Match` without reading first. An unconditional write has none: a concurrent change of other fields may land beside it, so its version is not known without a read.',
    required: false,
    schema: { type: 'string', pattern: '^"(0|[1-9][0-9]*)"$' },
  },
  Location: {
    description: 'The short-lived download address.',
    required: true,
    schema: { type: 'string', format: 'uri' },
  },
  CacheControl: {
    description: 'How long the answer may be kept.',
    required: true,
    schema: { type: 'string' },
  },
  FileETag: {
    description: "The file's version (a hash of its bytes): send it back in `If-None-Match` for a 304.",
    required: true,
    schema: { type: 'string' },
  },
  XContentTypeOptions: {
    description: 'Always `nosniff`.',
    required: true,
    schema: { type: 'string', const: 'nosniff' },
  },
  FileContentSecurityPolicy: {
    description:
      'A stored file loads nothing, runs nothing and is framed nowhere, even opened as a page (docs/decisions.md, Customers).',
    required: true,
    schema: { type: 'string', const: FILE_HEADERS['content-security-policy'] },
  },
  CrossOriginResourcePolicy: {
    description: "Other sites' pages cannot embed the file.",
    required: true,
    schema: { type: 'string', const: FILE_HEADERS['cross-origin-resource-policy'] },
  },
  ContentDisposition: {
    description:
      "`inline`, the file's name quoted in ASCII (other characters as `_`) and exactly in `filename*` (RFC 6266, RFC 5987).",
    required: true,
    schema: {
      type: 'string',
      pattern: String.raw`^inline; filename="[\x20\x21\x23\x24\x26-\x5b\x5d-\x7e]+"; filename\*=UTF-8''[A-Za-z0-9!#$&+.^_${'`'}|~%-]+$`,
    },
  },
  ReferrerPolicy: { description: 'Always `no-referrer`.', required: true, schema: { type: 'string' } },
  ContentSecurityPolicy: {
    description: "The page's policy: its own origin only (docs/decisions.md, Docs).",
    required: true,
    schema: { type: 'string' },
  },
  Vary: {
    description: 'What the answer varies by (`accept-encoding`).',
    required: true,
    schema: { type: 'string' },
  },
  ContentEncoding: {
    description: '`gzip` when the client accepts it.',
    required: false,
    schema: { type: 'string', enum: ['gzip'] },
  },
  Pragma: {
    description: 'HTTP/1.0 `no-cache`, as RFC 6749 asks of token responses.',
    required: true,
    schema: { type: 'string', const: 'no-cache' },
  },
  IdempotentReplayed: {
    description:
      'Present (`true`) when this is the stored answer of an earlier request with the same Idempotency-Key.',
    required: false,
    schema: { type: 'string', const: 'true' },
  },
  HelpdeskPosition: {
    description:
      "The change's place in the account's change feed (also each event's `position`): send it as `Helpdesk-Min-Position` to search once the change is indexed. Present when the write changed the account's data.",
    required: false,
    schema: { type: 'string', pattern: POSITION_PATTERN },
  },
};

const PARAMETERS: Record<string, JsonObject> = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account.',
    schema: { type: 'string', pattern: '^[\\x20-\\x7E]{1,255}$' },
  },
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    required: false,
    description:
      'Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes.',
    schema: { type: 'string' },
  },
  HelpdeskCompat: {
    name: 'Helpdesk-Compat',
    in: 'header',
    required: false,
    description:
      "Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id).",
    schema: { type: 'string', enum: ['standard', 'deskero'] },
  },
  HelpdeskMinPosition: {
    name: 'Helpdesk-Min-Position',
    in: 'header',
    required: false,
    description:
      'Read your writes: the `Helpdesk-Position` a write answered. The search waits (up to 5 s) until the index has applied that change and every earlier one of the account, then answers; past the wait, 503 `index-behind` with Retry-After. Without it, the search answers at once from what is indexed.',
    schema: { type: 'string', pattern: POSITION_PATTERN },
  },
};

const SECURITY_SCHEMES: Record<string, JsonObject> = {
  basicAuth: {
    type: 'http',
    scheme: 'basic',
    description:
      'The apiToken the operator CLI prints: base64(`<clientId>:<secret>`). Only for /oauth/token.',
  },
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description: 'An access token from /oauth/token, issued to the client named by `clientId`.',
  },
  clientId: {
    type: 'apiKey',
    in: 'header',
    name: 'clientId',
    description: 'The client (account) the access token was issued to.',
  },
};
const BEARER = [{ bearerAuth: [], clientId: [] }];

const jsonContent = (component: string, mediaType = 'application/json', extra: JsonObject = {}) => ({
  [mediaType]: { schema: ref('schemas', component), ...extra },
});

/** Validators of a static file (the docs renderer): what a 304 repeats. */
const staticHeaders = {
  ETag: ref('headers', 'FileETag'),
  Vary: ref('headers', 'Vary'),
};

/**
 * A change of the record in the path that answers its new version when known (domain/commit.ts
 * `versionAfter`): the updates, replies, notes, merges and unmerges, which honour `If-Match`.
 */
const writesVersion = (route: Route, status: number): boolean =>
  route.method === 'PUT' && status === 200 && route.responses.problems.includes(412);

const successResponse = (route: Route, [status, body]: readonly [number, ResponseBody]): JsonObject => {
  const headers: Record<string, JsonObject> = { 'x-request-id': ref('headers', 'XRequestId') };
  if (route.auth === 'bearer') Object.assign(headers, rateLimitHeaders(true));
  const kind = bodyKind(body);
  let content: JsonObject | undefined;
  let description = STATUS_TEXT[status] ?? String(status);
  if (kind.page) {
    content = jsonContent(`${VIEWS[kind.page]?.component}Page`);
    description = `A page of the list (or search), newest first unless said otherwise.`;
  } else if (kind.view) {
    content = jsonContent(VIEWS[kind.view]?.component as string);
    if (JOB_VIEWS.includes(body)) description = 'The job, every field present (null when not known yet).';
    else {
      headers.ETag = ref('headers', 'ETag');
      description = 'The record, every field present (null or [] when empty).';
    }
  } else if (body === 'bytes') {
    content = Object.fromEntries(PHOTO_MEDIA_TYPES.map((type) => [type, { schema: {} }]));
    Object.assign(headers, {
      'Cache-Control': ref('headers', 'CacheControl'),
      'Content-Disposition': ref('headers', 'ContentDisposition'),
      'X-Content-Type-Options': ref('headers', 'XContentTypeOptions'),
      'Content-Security-Policy': ref('headers', 'FileContentSecurityPolicy'),
      'Cross-Origin-Resource-Policy': ref('headers', 'CrossOriginResourcePolicy'),
    });
    description = 'The bytes, with their media type.';
  } else if (body === 'html' || body === 'script') {
    const type = body === 'html' ? 'text/html' : 'text/javascript';
    content = { [type]: { schema: { type: 'string' } } };
    Object.assign(headers, {
      'Cache-Control': ref('headers', 'CacheControl'),
      'X-Content-Type-Options': ref('headers', 'XContentTypeOptions'),
      'Referrer-Policy': ref('headers', 'ReferrerPolicy'),
    });
    if (body === 'html') headers['Content-Security-Policy'] = ref('headers', 'ContentSecurityPolicy');
    else Object.assign(headers, staticHeaders, { 'Content-Encoding': ref('headers', 'ContentEncoding') });
    description = body === 'html' ? 'The API reference page.' : "The reference page's renderer.";
  } else if (body === 'empty') {
    description = 'No content.';
    // A 304 of a static file repeats its validators and its caching.
    if (status === 304)
      Object.assign(headers, staticHeaders, { 'Cache-Control': ref('headers', 'CacheControl') });
  } else if (kind.fixed) {
    content = jsonContent(kind.fixed.component);
  } else {
    throw new Error(`${route.operationId}: no schema for response body ${body}`);
  }
  if (body === 'token') {
    headers['Cache-Control'] = ref('headers', 'CacheControl');
    headers.Pragma = ref('headers', 'Pragma');
  }
  if (body === 'redirect') {
    headers.Location = ref('headers', 'Location');
    headers['Cache-Control'] = ref('headers', 'CacheControl');
  }
  if (body === 'openapi') {
    headers['Cache-Control'] = ref('headers', 'CacheControl');
    Object.assign(headers, staticHeaders, { 'Content-Encoding': ref('headers', 'ContentEncoding') });
  }
  if (status === 201) {
    headers.Location = ref('headers', 'CreatedLocation');
    if (createdOf(route).versioned) headers.ETag = ref('headers', 'CreatedETag');
  }
  if (writesVersion(route, status)) headers.ETag = ref('headers', 'WrittenETag');
  if (route.idempotent && status === route.responses.success[0])
    headers['Idempotent-Replayed'] = ref('headers', 'IdempotentReplayed');
  if (route.access === 'write') headers['Helpdesk-Position'] = ref('headers', 'HelpdeskPosition');
  return { description, headers, ...(content ? { content } : {}) };
};

const problemResponse = (status: number, examples: Examples): JsonObject => {
  const headers: Record<string, JsonObject> = {
    'x-request-id': ref('headers', 'XRequestId'),
    ...rateLimitHeaders(false),
  };
  if (status === 401) headers['WWW-Authenticate'] = ref('headers', 'WWWAuthenticate');
  if (status === 429 || status === 503 || status === 504)
    headers['Retry-After'] = ref('headers', 'RetryAfter');
  const found = problemExamples(status, examples);
  return {
    description: `${STATUS_TEXT[status] ?? status}: ${PROBLEM_NOTES[status] ?? 'see docs/errors.md'}`,
    headers,
    content: jsonContent(`Problem${status}`, 'application/problem+json', found ? { examples: found } : {}),
  };
};

const TAGS: { name: string; description: string; matches: (r: Route) => boolean }[] = [
  { name: 'Contract', description: 'This document.', matches: (r) => r.auth === 'none' },
  {
    name: 'Auth',
    description: 'Access tokens for a client (an account).',
    matches: (r) => r.auth === 'basic',
  },
  {
    name: 'Tickets',
    description: 'Support requests with replies, notes, attached documents and classification.',
    matches: (r) => r.path.startsWith('/ticket/'),
  },
  {
    name: 'Customers',
    description: 'The people who open tickets.',
    matches: (r) => r.path.startsWith('/customer/'),
  },
  {
    name: 'Agents',
    description: 'The staff tickets are assigned to.',
    matches: (r) => r.path.startsWith('/agent/'),
  },
  {
    name: 'Lookups',
    description: 'Ticket types, areas and groups: names with a label per language.',
    matches: (r) => /^\/ticket(Type|Area|Group)\//.test(r.path),
  },
  {
    name: 'Events',
    description:
      'The change feed: every committed change of the account, exactly once, oldest first, resumable from a cursor.',
    matches: (r) => r.path.startsWith('/event/'),
  },
  {
    name: 'Webhooks',
    description:
      'Subscriptions to the change feed: its events POSTed to an https URL, signed per the Standard Webhooks specification (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with the secret the insert answers once; each delivery carries the feed cursor to replay from. Receiver URLs must resolve to public addresses.',
    matches: (r) => r.path.startsWith('/webhook/'),
  },
  {
    name: 'Imports',
    description:
      "Bringing a help desk's history in: a job reads an NDJSON file of agents, customers, lookups and tickets with their dates, numbers and conversations (docs/import.md), creating each source record once however often it is run.",
    matches: (r) => r.path === '/import' || r.path.startsWith('/import/'),
  },
];
const tagOf = (route: Route): string => {
  const tag = TAGS.find((t) => t.matches(route));
  if (!tag) throw new Error(`${route.operationId}: no tag matches ${route.path}`);
  return tag.name;
};

/**
 * Every operation's description, from what the route table says of it: how it is authenticated,
 * what it answers, and what makes a retry or a conditional write safe. (Spectral's
 * `operation-description`: test/unit/openapi.test.ts lints the document with it.)
 */
const descriptionOf = (route: Route): string => {
  const [status] = route.responses.success;
  const { problems } = route.responses;
  const parts = [`${route.summary}.`];
  if (route.cursors && route.request.query) parts.push(LIST_NOTE);
  parts.push(
    route.auth === 'none'
      ? 'Public: no credentials, no rate limit.'
      : route.auth === 'basic'
        ? '`Authorization: Basic <apiToken>`; the only route that takes the apiToken.'
        : 'Needs `Authorization: Bearer <access_token>` and `clientId`.',
  );
  if (status === 201)
    parts.push(
      createdOf(route).versioned
        ? 'Answers 201 with the new record’s `id`, its address in `Location` and its version in `ETag`.'
        : 'Answers 201 with the new resource and its address in `Location`.',
    );
  if (route.idempotent)
    parts.push(
      'With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice.',
    );
  if (problems.includes(412))
    parts.push(
      '`If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed).',
    );
  if (writesVersion(route, status))
    parts.push('The answer’s `ETag` is the new version when it is known exactly (see the header).');
  if (problems.includes(504))
    parts.push(
      route.idempotent
        ? 'A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.'
        : 'A 503 means nothing was written; a 504 that the outcome is unknown.',
    );
  return parts.join(' ');
};

const LIST_NOTE =
  '25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400.';

const DESCRIPTION = `A help-desk API compatible with the public Deskero API: tickets (with replies, notes,
attached documents, tags and status), customers, agents and ticket types, areas and groups.

**Authentication.** \`GET /oauth/token?grant_type=client_credentials\` with \`Authorization: Basic <apiToken>\`
answers an access token; every other route needs \`Authorization: Bearer <access_token>\` and the
\`clientId\` header. A client is one account: no request reads or changes another's data.

**Errors** are \`application/problem+json\` (RFC 9457) with a stable \`type\` URN per cause (each
status's schema lists its types); validation problems list each field in \`errors\`. Every response
carries \`x-request-id\`; authenticated ones \`RateLimit-Limit\`, \`RateLimit-Remaining\`,
\`RateLimit-Reset\`.

**Values.** Ids are opaque strings; timestamps integer milliseconds since the epoch (negative
allowed). Every field of a record is present in a read, \`null\` (or \`[]\`) when empty. Updates
merge: only the fields sent change, \`null\` clears one.

Generated from the route table and the schemas of the code (\`npm run openapi\`); the
integration tests validate every response against it.`;

/** The whole document of a route table (the API's unless a test passes another). Deterministic. */
export const openApiDocument = (table: readonly Route[] = routes, examples = CAPTURED): JsonObject => {
  const outputs = responseSchemas(table);
  const { schemas: inputs, nameOf } = requestSchemas(table);
  for (const name of Object.keys(inputs)) {
    if (name in outputs) throw new Error(`Schema component ${name} is both a request and a response`);
  }
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const route of table) {
    const operation: JsonObject = {
      operationId: route.operationId,
      summary: route.summary,
      tags: [tagOf(route)],
      description: descriptionOf(route),
      ...(route.auth === 'basic' ? { security: [{ basicAuth: [] }] } : {}),
      ...(route.auth === 'none' ? { security: [] } : {}),
    };
    const parameters = parametersOf(route);
    if (parameters.length > 0) operation.parameters = parameters;
    const body = documentedBodyOf(route);
    if (body) operation.requestBody = { required: true, content: jsonContent(nameOf(body)) };
    const responses: Record<string, JsonObject> = {};
    for (const success of successes(route)) responses[String(success[0])] = successResponse(route, success);
    for (const status of route.responses.problems)
      responses[String(status)] = ref('responses', `Problem${status}`);
    operation.responses = responses;
    withOperationExamples(operation, examples);
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, JsonObject>)[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.1',
    info: {
      title: 'Help-desk API',
      version: pkg.version,
      description: DESCRIPTION,
      // Each deployment is run by its operator, who gives integrators their clients.
      contact: { name: 'The operator of this deployment (who gave you your clientId)' },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'The API that serves this document' }],
    security: BEARER,
    tags: TAGS.map(({ name, description }) => ({ name, description })),
    paths,
    components: {
      schemas: { ...outputs, ...inputs },
      responses: Object.fromEntries(
        problemStatuses(table).map((s) => [`Problem${s}`, problemResponse(s, examples)]),
      ),
      parameters: PARAMETERS,
      headers: HEADERS,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
};
