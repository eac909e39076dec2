import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../shared/http/errors';
import { listRequest } from '../../shared/http/list-query';
import { validate } from '../../shared/http/validate';
import { routeOf } from '../../shared/routes';

type Query = Record<string, string | undefined>;

/** What a list route does with a query string: validate it with the route's schema, then split it. */
const parse = (operationId: 'ticketList' | 'customerList' | 'ticketTypeList', raw: Query) => {
  const schema = routeOf(operationId).request.query;
  const parsed = validate(schema, raw, 'query') as { page: number; cursor?: string } & Record<
    string,
    unknown
  >;
  return listRequest(parsed, raw);
};

const refused = (operationId: Parameters<typeof parse>[0], raw: Query): HttpError => {
  try {
    parse(operationId, raw);
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 400, code: 'bad-request', detail: 'The query is invalid.' });
    return error as HttpError;
  }
  throw new Error(`accepted ${JSON.stringify(raw)}`);
};
const paths = (error: HttpError) => error.errors?.map((e) => e.path);

describe('list query parsing', () => {
  it('defaults to page 1 of the whole list', () => {
    expect(parse('ticketList', {})).toEqual({ query: { page: 1 }, filter: {} });
    expect(parse('customerList', {})).toEqual({ query: { page: 1 }, filter: {} });
  });

  it('takes a page from 1 to 9999999 and a cursor', () => {
    expect(parse('ticketList', { page: '7', cursor: 'abc.def' })).toEqual({
      query: { page: 7, cursor: 'abc.def' },
      filter: {},
    });
    expect(parse('ticketList', { page: '9999999' }).query.page).toBe(9_999_999);
  });

  it.each(['0', 'abc', '-1', '1.5', '01', '', ' 1', '10000000', '1e3'])(
    'refuses page=%j naming it',
    (page) => {
      expect(paths(refused('ticketList', { page }))).toEqual(['page']);
    },
  );

  it('refuses an empty cursor', () => {
    expect(paths(refused('ticketList', { cursor: '' }))).toEqual(['cursor']);
  });

  it('refuses an unknown field, naming it', () => {
    const error = refused('ticketList', { stauts: 'opened' });
    expect(error.errors).toEqual([{ path: 'stauts', message: 'unknown field' }]);
    // A search of another resource is unknown here.
    expect(refused('customerList', { status: 'opened' }).errors).toEqual([
      { path: 'status', message: 'unknown field' },
    ]);
    expect(paths(refused('ticketTypeList', { name: 'x' }))).toEqual(['name']);
  });

  it('takes a view on the ticket list, not as a search: links keep it as sent', () => {
    expect(parse('ticketList', { view: 'summary' })).toEqual({
      query: { page: 1 },
      filter: { view: 'summary' },
      view: 'summary',
    });
    expect(parse('ticketList', { view: 'detail', status: 'OPENED', page: '2' })).toEqual({
      query: { page: 2, search: { param: 'status', value: 'opened' } },
      filter: { status: 'OPENED', view: 'detail' },
      view: 'detail',
    });
    for (const view of ['Summary', 'full', '', 'lean']) {
      expect(refused('ticketList', { view }).errors).toEqual([
        { path: 'view', message: 'must be one of detail, summary' },
      ]);
    }
    // Other lists have one shape of record: a view is an unknown field there.
    expect(refused('customerList', { view: 'summary' }).errors).toEqual([
      { path: 'view', message: 'unknown field' },
    ]);
  });

  it('refuses two search fields at once', () => {
    const error = refused('ticketList', { status: 'opened', priority: '1' });
    expect(error.errors?.map((e) => e.message)).toEqual(['search by one field at a time']);
    expect(refused('customerList', { email: 'a@b.c', name: 'A' }).errors?.[0]?.message).toBe(
      'search by one field at a time',
    );
  });

  it('normalises the status for the index and keeps the raw value for page links', () => {
    for (const raw of ['onhold', 'OnHold', 'on hold', ' On Hold ']) {
      expect(parse('ticketList', { status: raw })).toEqual({
        query: { page: 1, search: { param: 'status', value: 'on hold' } },
        filter: { status: raw },
      });
    }
    expect(parse('ticketList', { status: 'CLOSED', page: '2' })).toEqual({
      query: { page: 2, search: { param: 'status', value: 'closed' } },
      filter: { status: 'CLOSED' },
    });
    expect(refused('ticketList', { status: 'pending' }).errors).toEqual([
      { path: 'status', message: 'must be one of opened, on hold, solved, closed' },
    ]);
  });

  it('takes priority 0 or 1 only', () => {
    expect(parse('ticketList', { priority: '0' }).query.search).toEqual({ param: 'priority', value: '0' });
    expect(parse('ticketList', { priority: '1' }).query.search).toEqual({ param: 'priority', value: '1' });
    for (const priority of ['2', '01', '-0', 'high', ' 1', 'true']) {
      expect(refused('ticketList', { priority }).errors).toEqual([
        { path: 'priority', message: 'must be 0 or 1' },
      ]);
    }
  });

  it('takes managedDate as a millisecond timestamp only', () => {
    for (const ms of ['0', '1700000000000', '-86400000', '9007199254740991']) {
      expect(parse('ticketList', { managedDate: ms }).query.search).toEqual({
        param: 'managedDate',
        value: ms,
      });
    }
    for (const ms of [
      'yesterday',
      '1.5',
      '1e12',
      '2026-01-01',
      '9007199254740993',
      '12345678901234567',
      '+5',
    ]) {
      expect(refused('ticketList', { managedDate: ms }).errors).toEqual([
        { path: 'managedDate', message: 'must be a millisecond timestamp' },
      ]);
    }
  });

  it('accepts any safe integer as managedDate and nothing else made of digits', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (ms) => {
        expect(parse('ticketList', { managedDate: String(ms) }).query.search?.value).toBe(String(ms));
      }),
    );
  });

  it('trims a tag for the index, keeps it as sent for links, and refuses a blank one', () => {
    expect(parse('ticketList', { tags: ' urgent ' })).toEqual({
      query: { page: 1, search: { param: 'tags', value: 'urgent' } },
      filter: { tags: ' urgent ' },
    });
    expect(refused('ticketList', { tags: '   ' }).errors).toEqual([
      { path: 'tags', message: 'must not be blank' },
    ]);
  });

  it('refuses empty and over-500-character search values, takes 500', () => {
    const long = 'x'.repeat(500);
    expect(parse('customerList', { name: long }).query.search).toEqual({ param: 'name', value: long });
    expect(parse('ticketList', { 'openedBy._id': long }).query.search?.value).toBe(long);
    for (const [operationId, field] of [
      ['customerList', 'email'],
      ['customerList', 'name'],
      ['ticketList', 'openedBy._id'],
      ['ticketList', 'status'],
      ['ticketList', 'tags'],
      ['ticketList', 'managedDate'],
      ['ticketTypeList', 'type'],
    ] as const) {
      for (const value of ['', `${long}x`]) {
        const error = refused(operationId, { [field]: value });
        expect(error.errors).toEqual([{ path: field, message: 'must be 1 to 500 characters' }]);
      }
    }
  });

  it('takes plain searches as sent, both in the query and in the filter', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('email', 'name'),
        fc.string({ minLength: 1, maxLength: 500 }),
        fc.integer({ min: 1, max: 9_999_999 }),
        (field, value, page) => {
          expect(parse('customerList', { [field]: value, page: String(page) })).toEqual({
            query: { page, search: { param: field, value } },
            filter: { [field]: value },
          });
        },
      ),
    );
  });

  it('lists every field error of one query', () => {
    const error = refused('ticketList', { page: '0', priority: '3', foo: 'x' });
    expect(paths(error)?.sort()).toEqual(['foo', 'page', 'priority']);
  });
});
