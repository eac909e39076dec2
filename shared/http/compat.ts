import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { type CompatRole, compatRole, type Route } from '../routes';
import { COMPAT_PROFILES, type CompatProfile, DEFAULT_COMPAT, parseCompat } from '../schemas/compat';
import type { Status } from '../schemas/ticket';

/** A status's machine name as a profile reads it (`onhold` under `deskero`). */
type StatusName = Status | 'onhold';

import { NotFound } from '../store/errors';
import { HttpError } from './errors';
import { requestState } from './request-state';
import { type HttpResult, json } from './responses';

/**
 * The one place that knows what a compatibility profile changes (docs/decisions.md,
 * "Compatibility profiles"). The profile of a request is resolved once, after authentication,
 * from its client's pinned profile and the `Helpdesk-Compat` header (`compatProfile`); the
 * result, a `Compat`, is what the handler chain consults where it validates the query
 * (api-handler.ts), shapes a page (list handlers) or a ticket status (views/ticket.ts), and
 * answers an operation's error (api-handler.ts). The store and the domain never see it.
 */

/** The request header that overrides the client's profile for one request. */
export const COMPAT_HEADER = 'Helpdesk-Compat';

/** Everything a profile changes, as data; whatever is not here is the same under every profile. */
interface Rules {
  /** A page with no records (a list or search that matched nothing): the page, or 204 No Content. */
  emptyPage: 'page' | 'no-content';
  /** A detail of an unknown or foreign id: the 404 problem, or 204 No Content. */
  missingDetail: 'not-found' | 'no-content';
  /** Ticket statuses whose machine name reads differently (labels stay). */
  statusNames: Partial<Record<Status, StatusName>>;
  /** Query parameters a list accepts and ignores (pages stay 25 records). */
  ignoredListParams: readonly string[];
}

const RULES: Record<CompatProfile, Rules> = {
  standard: { emptyPage: 'page', missingDetail: 'not-found', statusNames: {}, ignoredListParams: [] },
  // What Deskero's own API does, as integrations written against it expect.
  deskero: {
    emptyPage: 'no-content',
    missingDetail: 'no-content',
    statusNames: { 'on hold': 'onhold' },
    ignoredListParams: ['limit'],
  },
};

export interface Compat {
  readonly profile: CompatProfile;
  /** The query parameters the route validates (a list drops those its profile ignores). */
  query(raw: Record<string, string | undefined>): Record<string, string | undefined>;
  /** A list's answer: `{ [key]: page }`, or 204 for a page without records where the profile says so. */
  page(key: string, page: { records: readonly unknown[] }): HttpResult;
  /** The profile's own answer to an error of the operation (204 for a missing detail), if it has one. */
  answer(error: unknown): HttpResult | undefined;
  /** The machine name of a ticket status. */
  statusName(status: Status): StatusName;
}

/** `204 No Content`: no body, no content type. */
const noContent = (): HttpResult => ({ statusCode: 204, headers: {} });

/** Each route's behaviour under each profile, made once (a profile's rules never change). */
const made = new WeakMap<Route, Partial<Record<CompatProfile, Compat>>>();

/** The behaviour of one route under one profile. */
export const compatFor = (route: Route, profile: CompatProfile): Compat => {
  let ofRoute = made.get(route);
  if (!ofRoute) {
    ofRoute = {};
    made.set(route, ofRoute);
  }
  ofRoute[profile] ??= makeCompat(route, profile);
  return ofRoute[profile];
};

const makeCompat = (route: Route, profile: CompatProfile): Compat => {
  const rules = RULES[profile];
  const role: CompatRole | undefined = compatRole(route);
  return {
    profile,
    query: (raw) =>
      role === 'list' && rules.ignoredListParams.length
        ? Object.fromEntries(Object.entries(raw).filter(([name]) => !rules.ignoredListParams.includes(name)))
        : raw,
    page: (key, page) =>
      page.records.length === 0 && rules.emptyPage === 'no-content'
        ? noContent()
        : json(200, { [key]: page }),
    answer: (error) =>
      role === 'detail' && error instanceof NotFound && rules.missingDetail === 'no-content'
        ? noContent()
        : undefined,
    statusName: (status) => rules.statusNames[status] ?? status,
  };
};

/**
 * The profile of one request: the header's when it names one, else the client's. A header
 * naming no profile is a 400 that names it.
 */
export const resolveCompat = (
  route: Route,
  clientProfile: CompatProfile | undefined,
  header: string | undefined,
): Compat => {
  if (header === undefined) return compatFor(route, clientProfile ?? DEFAULT_COMPAT);
  const profile = parseCompat(header);
  if (!profile) {
    const message = `must be one of ${COMPAT_PROFILES.join(', ')}`;
    throw new HttpError(400, 'bad-request', 'Bad Request', `The ${COMPAT_HEADER} header ${message}.`, [
      { path: COMPAT_HEADER, message },
    ]);
  }
  return compatFor(route, profile);
};

/**
 * Middleware after authentication (which found the client's profile) on bearer routes: resolves
 * the request's profile once and leaves it in the request's state (request-state.ts) for the operation.
 */
export const compatProfile = (route: Route): MiddlewareObj<APIGatewayProxyEventV2> => ({
  before: ({ event }) => {
    const state = requestState(event);
    state.compat = resolveCompat(route, state.client?.compat, event.headers[COMPAT_HEADER.toLowerCase()]);
  },
});
