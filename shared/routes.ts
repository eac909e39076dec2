/**
 * The route table: the single source of truth for the HTTP surface.
 * The CDK stack, the local server and the parity tests all read it, so they cannot drift.
 * Pure data: this module imports nothing.
 *
 * - `handler` names the file `functions/<handler>.ts` (exporting `handler`).
 * - `access` decides the DynamoDB grant in the stack: `read` routes get read-only access.
 * - `hasBody` routes get the JSON body parser; the others never parse a body
 *   (Deskero clients send `Content-Type: application/json` on DELETE with no body).
 * - `auth`: `bearer` (access token + clientId) or `basic` (the apiToken, token endpoint only).
 * - `blobs`: access to the attachments bucket (`read` presigns downloads / reads photos,
 *   `write` stores and deletes objects); absent means none.
 * - `maxBodyBytes`: body limit (413 beyond); 1 MiB unless the route carries files.
 * - `idempotent`: creates something and honours `Idempotency-Key`.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Route {
  readonly operationId: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly handler: string;
  readonly access: 'read' | 'write';
  readonly hasBody: boolean;
  readonly auth: 'bearer' | 'basic';
  readonly blobs?: 'read' | 'write';
  readonly maxBodyBytes?: number;
  readonly idempotent?: boolean;
}

/** Routes carrying documents inline: below Lambda's 6 MB invocation payload, with room for headers. */
const FILE_BODY = 5_500_000;
/** Customer bodies may carry a photo of up to 1 MiB as hex (2 MiB of text). */
const PHOTO_BODY = 3_000_000;

const route = (
  operationId: string,
  method: HttpMethod,
  path: string,
  handler: string,
  access: 'read' | 'write',
  hasBody = false,
  extra: Partial<Pick<Route, 'auth' | 'blobs' | 'maxBodyBytes' | 'idempotent'>> = {},
): Route => ({ operationId, method, path, handler, access, hasBody, auth: 'bearer', ...extra });

const withFiles = { blobs: 'write', maxBodyBytes: FILE_BODY } as const;

/** The five CRUD routes that customers, agents and every lookup share (`files`: writes carry a photo). */
const crud = (prefix: string, file: string, files?: { blobs: 'write'; maxBodyBytes: number }): Route[] => [
  route(`${prefix}List`, 'GET', `/${prefix}/list`, `${file}-list`, 'read'),
  route(`${prefix}Detail`, 'GET', `/${prefix}/{id}`, `${file}-detail`, 'read'),
  route(`${prefix}Insert`, 'POST', `/${prefix}/insert`, `${file}-insert`, 'write', true, {
    ...files,
    idempotent: true,
  }),
  route(`${prefix}Update`, 'PUT', `/${prefix}/update/{id}`, `${file}-update`, 'write', true, files),
  route(
    `${prefix}Delete`,
    'DELETE',
    `/${prefix}/delete/{id}`,
    `${file}-delete`,
    'write',
    false,
    files && { blobs: 'write' },
  ),
];

export const routes: readonly Route[] = [
  // Token exchange writes the issued (hashed) access token.
  route('oauthToken', 'GET', '/oauth/token', 'oauth-token', 'write', false, { auth: 'basic' }),

  route('ticketList', 'GET', '/ticket/list', 'ticket-list', 'read'),
  route('ticketDetail', 'GET', '/ticket/{id}', 'ticket-detail', 'read'),
  route('ticketInsert', 'POST', '/ticket/insert', 'ticket-insert', 'write', true, {
    ...withFiles,
    idempotent: true,
  }),
  route('ticketUpdate', 'PUT', '/ticket/update/{id}', 'ticket-update', 'write', true, withFiles),
  route('ticketDelete', 'DELETE', '/ticket/delete/{id}', 'ticket-delete', 'write', false, { blobs: 'write' }),
  route('ticketReply', 'PUT', '/ticket/reply/{id}', 'ticket-reply', 'write', true, {
    ...withFiles,
    idempotent: true,
  }),
  route('ticketAddNote', 'PUT', '/ticket/addNote/{id}', 'ticket-add-note', 'write', true, {
    idempotent: true,
  }),
  route(
    'ticketAttachment',
    'GET',
    '/ticket/{id}/attachment/{documentId}',
    'ticket-attachment',
    'read',
    false,
    {
      blobs: 'read',
    },
  ),
  // Presigns a PUT of a large file to the staging area; the table is not touched.
  route(
    'ticketAttachmentUpload',
    'POST',
    '/ticket/attachment/upload',
    'ticket-attachment-upload',
    'read',
    true,
    {
      blobs: 'write',
    },
  ),

  ...crud('customer', 'customer', { blobs: 'write', maxBodyBytes: PHOTO_BODY }),
  route('customerPhoto', 'GET', '/customer/photo/{id}', 'customer-photo', 'read', false, { blobs: 'read' }),

  ...crud('agent', 'agent'),
  ...crud('ticketType', 'ticket-type'),
  ...crud('ticketArea', 'ticket-area'),
  ...crud('ticketGroup', 'ticket-group'),
];

/** `GET /ticket/{id}` — the API Gateway route key of a route. */
export const routeKey = (r: Route): string => `${r.method} ${r.path}`;
