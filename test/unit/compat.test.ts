import { describe, expect, it } from 'vitest';
import { COMPAT_HEADER, compatFor, compatProfile, resolveCompat } from '../../shared/http/compat';
import { HttpError } from '../../shared/http/errors';
import { requestState } from '../../shared/http/request-state';
import { compatRole, routeOf, routes } from '../../shared/routes';
import { COMPAT_PROFILES, parseCompat, storedCompat } from '../../shared/schemas/compat';
import { STATUSES } from '../../shared/schemas/ticket';
import { Conflict, NotFound } from '../../shared/store/errors';

const list = routeOf('customerList');
const detail = routeOf('ticketDetail');
const update = routeOf('customerUpdate');
const PAGE = { totalRecords: 0, recordsPerPage: 25, previousQuery: null, nextQuery: null, records: [] };

describe('profile names', () => {
  it('reads a profile in any case with blanks around, nothing else; a stored one defaults to standard', () => {
    expect(COMPAT_PROFILES).toEqual(['standard', 'deskero']);
    expect(parseCompat('deskero')).toBe('deskero');
    expect(parseCompat(' Standard ')).toBe('standard');
    for (const value of ['', 'legacy', 'deskero,standard', 'desk ero'])
      expect(parseCompat(value)).toBeUndefined();
    expect(storedCompat('deskero')).toBe('deskero');
    for (const value of [undefined, null, 42, 'legacy']) expect(storedCompat(value)).toBe('standard');
  });
});

describe('compatRole', () => {
  it('makes lists of the routes answering pages and details of the seven GET views; nothing else', () => {
    const byRole = (role: string) =>
      routes
        .filter((r) => compatRole(r) === role)
        .map((r) => r.operationId)
        .sort();
    expect(byRole('detail')).toEqual(
      [
        'agentDetail',
        'customerDetail',
        'ticketAreaDetail',
        'ticketDetail',
        'ticketGroupDetail',
        'ticketTypeDetail',
        'webhookDetail',
      ].sort(),
    );
    expect(byRole('list')).toEqual(
      [
        'agentList',
        'customerList',
        'ticketAreaList',
        'ticketDocuments',
        'ticketGroupList',
        'ticketList',
        'ticketSearch',
        'customerSearch',
        'importErrors',
        'ticketNotes',
        'ticketTrashList',
        'ticketReplies',
        'ticketHistory',
        'customerHistory',
        'ticketTypeList',
        'webhookDeliveries',
        'webhookList',
      ].sort(),
    );
    for (const op of ['customerPhoto', 'ticketAttachment', 'oauthToken', 'ticketInsert'] as const) {
      expect(compatRole(routeOf(op)), op).toBeUndefined();
    }
  });
});

describe('resolveCompat', () => {
  it("takes the client's profile without the header, standard for a client without one", () => {
    expect(resolveCompat(list, 'deskero', undefined).profile).toBe('deskero');
    expect(resolveCompat(list, 'standard', undefined).profile).toBe('standard');
    expect(resolveCompat(list, undefined, undefined).profile).toBe('standard');
  });

  it('lets the header override it both ways', () => {
    expect(resolveCompat(list, 'standard', 'deskero').profile).toBe('deskero');
    expect(resolveCompat(list, 'deskero', 'standard').profile).toBe('standard');
    expect(resolveCompat(list, 'standard', 'DESKERO').profile).toBe('deskero');
  });

  it('refuses a header naming no profile with a 400 that names the header', () => {
    for (const value of ['', 'legacy', 'deskero, standard']) {
      let thrown: unknown;
      try {
        resolveCompat(list, 'deskero', value);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, value).toBeInstanceOf(HttpError);
      expect(thrown).toMatchObject({
        status: 400,
        code: 'bad-request',
        detail: 'The Helpdesk-Compat header must be one of standard, deskero.',
        errors: [{ path: COMPAT_HEADER, message: 'must be one of standard, deskero' }],
      });
    }
  });

  it('as middleware, leaves the resolved profile in the request state from the client and the lower-cased header', () => {
    const event = {
      headers: { 'helpdesk-compat': 'standard' },
      requestContext: {},
    } as never as Parameters<NonNullable<ReturnType<typeof compatProfile>['before']>>[0]['event'];
    requestState(event).client = { tenantId: 't', compat: 'deskero' };
    const resolve = compatProfile(list).before as (r: { event: typeof event }) => void;
    resolve({ event });
    expect(requestState(event).compat?.profile).toBe('standard');
    event.headers = {};
    resolve({ event });
    expect(requestState(event).compat?.profile).toBe('deskero');
    expect(event.requestContext).toEqual({});
  });
});

describe('what a profile changes', () => {
  const standard = { list: compatFor(list, 'standard'), detail: compatFor(detail, 'standard') };
  const deskero = { list: compatFor(list, 'deskero'), detail: compatFor(detail, 'deskero') };

  it('answers an empty page with 204 and no body nor content type under deskero, the page under standard', () => {
    expect(deskero.list.page('customer', PAGE)).toEqual({ statusCode: 204, headers: {} });
    expect(standard.list.page('customer', PAGE)).toEqual({
      statusCode: 200,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ customer: PAGE }),
    });
    const full = { ...PAGE, totalRecords: 1, records: [{ id: 'x' }] };
    expect(deskero.list.page('customer', full)).toEqual(standard.list.page('customer', full));
  });

  it('answers a missing detail with 204 under deskero; nothing else, and nothing under standard', () => {
    expect(deskero.detail.answer(new NotFound('Ticket x'))).toEqual({ statusCode: 204, headers: {} });
    expect(standard.detail.answer(new NotFound('Ticket x'))).toBeUndefined();
    expect(deskero.detail.answer(new Conflict('in-use', 'x'))).toBeUndefined();
    expect(deskero.detail.answer(new Error('boom'))).toBeUndefined();
    // Other operations on an unknown id stay 404.
    expect(deskero.list.answer(new NotFound('x'))).toBeUndefined();
    expect(compatFor(update, 'deskero').answer(new NotFound('x'))).toBeUndefined();
    expect(compatFor(routeOf('customerPhoto'), 'deskero').answer(new NotFound('x'))).toBeUndefined();
    expect(compatFor(routeOf('ticketAttachment'), 'deskero').answer(new NotFound('x'))).toBeUndefined();
  });

  it('drops limit from a list query under deskero only, and only on lists', () => {
    const raw = { page: '2', email: 'a@b.c', limit: '1000' };
    expect(deskero.list.query(raw)).toEqual({ page: '2', email: 'a@b.c' });
    expect(standard.list.query(raw)).toEqual(raw);
    expect(deskero.detail.query({ limit: '5' })).toEqual({ limit: '5' });
    expect(compatFor(routeOf('ticketReplies'), 'deskero').query({ limit: '5' })).toEqual({});
  });

  it('names the status on hold onhold under deskero, and every other status as it is', () => {
    expect(deskero.detail.statusName('on hold')).toBe('onhold');
    expect(deskero.list.statusName('on hold')).toBe('onhold');
    expect(standard.detail.statusName('on hold')).toBe('on hold');
    for (const status of STATUSES.filter((s) => s !== 'on hold')) {
      expect(deskero.detail.statusName(status)).toBe(status);
      expect(standard.detail.statusName(status)).toBe(status);
    }
  });
});
