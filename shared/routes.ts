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
}

const route = (
  operationId: string,
  method: HttpMethod,
  path: string,
  handler: string,
  access: 'read' | 'write',
  hasBody = false,
  auth: 'bearer' | 'basic' = 'bearer',
): Route => ({ operationId, method, path, handler, access, hasBody, auth });

/** The five CRUD routes that customers, agents and every lookup share. */
const crud = (prefix: string, file: string): Route[] => [
  route(`${prefix}List`, 'GET', `/${prefix}/list`, `${file}-list`, 'read'),
  route(`${prefix}Detail`, 'GET', `/${prefix}/{id}`, `${file}-detail`, 'read'),
  route(`${prefix}Insert`, 'POST', `/${prefix}/insert`, `${file}-insert`, 'write', true),
  route(`${prefix}Update`, 'PUT', `/${prefix}/update/{id}`, `${file}-update`, 'write', true),
  route(`${prefix}Delete`, 'DELETE', `/${prefix}/delete/{id}`, `${file}-delete`, 'write'),
];

export const routes: readonly Route[] = [
  // Token exchange writes the issued (hashed) access token.
  route('oauthToken', 'GET', '/oauth/token', 'oauth-token', 'write', false, 'basic'),

  route('ticketList', 'GET', '/ticket/list', 'ticket-list', 'read'),
  route('ticketDetail', 'GET', '/ticket/{id}', 'ticket-detail', 'read'),
  route('ticketInsert', 'POST', '/ticket/insert', 'ticket-insert', 'write', true),
  route('ticketUpdate', 'PUT', '/ticket/update/{id}', 'ticket-update', 'write', true),
  route('ticketDelete', 'DELETE', '/ticket/delete/{id}', 'ticket-delete', 'write'),
  route('ticketReply', 'PUT', '/ticket/reply/{id}', 'ticket-reply', 'write', true),
  route('ticketAddNote', 'PUT', '/ticket/addNote/{id}', 'ticket-add-note', 'write', true),

  ...crud('customer', 'customer'),
  route('customerPhoto', 'GET', '/customer/photo/{id}', 'customer-photo', 'read'),

  ...crud('agent', 'agent'),
  ...crud('ticketType', 'ticket-type'),
  ...crud('ticketArea', 'ticket-area'),
  ...crud('ticketGroup', 'ticket-group'),
];

/** `GET /ticket/{id}` — the API Gateway route key of a route. */
export const routeKey = (r: Route): string => `${r.method} ${r.path}`;
