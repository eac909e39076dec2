import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageUrl, pageView } from '../../shared/http/views/page';
import { customerEntity } from '../../shared/store/entities/records';
import { ticketEntity } from '../../shared/store/entities/ticket';
import { searchTarget } from '../../shared/store/entity';
import { InvalidCursor } from '../../shared/store/errors';
import {
  filterDigest,
  pageLinks,
  pageStartsWithin,
  RECORDS_PER_PAGE,
  resumeKey,
} from '../../shared/store/pages';
import { TENANT } from './fixtures';

const SORT = 'listsk';
const entry = (n: number) => ({ listsk: `sort-${n}`, pk: `T#${TENANT}#TICKET#${n}`, sk: '#', listpk: 'x' });
const entries = (count: number) => Array.from({ length: count }, (_, i) => entry(i));

describe('pageLinks', () => {
  it('gives page 1 no previous page, and a next page resuming after its last entry when more follow', () => {
    expect(pageLinks(SORT, 1, entries(25), true, 'n')).toEqual({
      previous: null,
      next: { page: 2, k: ['sort-24', `T#${TENANT}#TICKET#24`, '#'] },
    });
  });

  it('gives the last page no next page', () => {
    expect(pageLinks(SORT, 1, entries(3), false, 'n').next).toBeNull();
    expect(pageLinks(SORT, 4, entries(25), false, 'n').next).toBeNull();
  });

  it('points page 2 back at a bare page 1 (no cursor)', () => {
    expect(pageLinks(SORT, 2, entries(25), true, 'n').previous).toEqual({ page: 1 });
  });

  it('points later pages back with a cursor from their first entry', () => {
    expect(pageLinks(SORT, 3, entries(25), false, 'n').previous).toEqual({
      page: 2,
      k: ['sort-0', `T#${TENANT}#TICKET#0`, '#'],
    });
  });

  it('points an empty page past the end back at a bare page number and nowhere forward', () => {
    expect(pageLinks(SORT, 9, [], false, 'n')).toEqual({ previous: { page: 8 }, next: null });
  });

  it('walking backwards, always has a next page (the one the walk came from)', () => {
    expect(pageLinks(SORT, 3, entries(25), false, 'p').next).toEqual({
      page: 4,
      k: ['sort-24', `T#${TENANT}#TICKET#24`, '#'],
    });
  });

  it('links exactly the neighbours that exist, for any page and page fill', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 10_000 })),
        fc.nat({ max: RECORDS_PER_PAGE }),
        fc.boolean(),
        fc.constantFrom('n' as const, 'p' as const),
        (page, size, hasMore, direction) => {
          const { previous, next } = pageLinks(SORT, page, entries(size), hasMore, direction);
          expect(previous === null).toBe(page === 1);
          if (previous) expect(previous.page).toBe(page - 1);
          expect(previous?.k !== undefined).toBe(page > 2 && size > 0);
          expect(next !== null).toBe(size > 0 && (hasMore || direction === 'p'));
          if (next)
            expect(next).toEqual({ page: page + 1, k: [`sort-${size - 1}`, entry(size - 1).pk, '#'] });
        },
      ),
    );
  });
});

describe('pageStartsWithin', () => {
  it('says whether a bare ?page=n has any entry to skip to', () => {
    expect(pageStartsWithin(1, 0)).toBe(false);
    expect(pageStartsWithin(1, 1)).toBe(true);
    expect(pageStartsWithin(2, 25)).toBe(false);
    expect(pageStartsWithin(2, 26)).toBe(true);
    expect(pageStartsWithin(5, 100)).toBe(false);
    expect(pageStartsWithin(5, 101)).toBe(true);
  });
});

describe('filterDigest', () => {
  const list = searchTarget(ticketEntity, TENANT);
  it('is short and stable for one list, search or range', () => {
    expect(filterDigest(list)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(filterDigest(searchTarget(ticketEntity, TENANT))).toBe(filterDigest(list));
  });

  it('differs between lists, search values, slots and range starts', () => {
    const digests = [
      list,
      searchTarget(customerEntity, TENANT),
      searchTarget(ticketEntity, TENANT, { param: 'status', value: 'opened' }),
      searchTarget(ticketEntity, TENANT, { param: 'status', value: 'closed' }),
      searchTarget(ticketEntity, TENANT, { param: 'tags', value: 'opened' }),
      searchTarget(ticketEntity, TENANT, { param: 'managedDate', value: '1' }),
      searchTarget(ticketEntity, TENANT, { param: 'managedDate', value: '2' }),
      searchTarget(ticketEntity, 'tenant2'),
    ].map(filterDigest);
    expect(new Set(digests).size).toBe(digests.length);
  });
});

describe('resumeKey', () => {
  const target = searchTarget(ticketEntity, TENANT, { param: 'status', value: 'opened' });
  const cursor = (pk: string) => ({
    t: TENANT,
    r: 'TICKET',
    f: '',
    p: 2,
    d: 'n' as const,
    k: ['s', pk, '#'] as [string, string, string],
  });

  it('resumes inside the searched partition from the cursor position', () => {
    expect(resumeKey({ tenantId: TENANT, target }, cursor(`T#${TENANT}#TICKET#abc`))).toEqual({
      s1pk: `T#${TENANT}#TICKET#status=opened`,
      s1sk: 's',
      pk: `T#${TENANT}#TICKET#abc`,
      sk: '#',
    });
  });

  it("refuses a position in another tenant's keys, even with a valid signature", () => {
    for (const pk of [`T#${TENANT}x#TICKET#abc`, 'T#tenant2#TICKET#abc', 'CLIENT#abc', '']) {
      expect(() => resumeKey({ tenantId: TENANT, target }, cursor(pk))).toThrow(InvalidCursor);
    }
  });
});

describe('page URLs', () => {
  const listUrl = 'https://api.example.com/ticket/list';

  it('keep the filter first, then the page, then the cursor', () => {
    expect(pageUrl(listUrl, { status: 'onhold' }, { page: 3, cursor: 'abc.def' })).toBe(
      `${listUrl}?status=onhold&page=3&cursor=abc.def`,
    );
  });

  it('lead from page 2 back to the bare page 1', () => {
    expect(pageUrl(listUrl, {}, { page: 1 })).toBe(`${listUrl}?page=1`);
    expect(pageUrl(listUrl, { tags: 'a' }, { page: 1 })).toBe(`${listUrl}?tags=a&page=1`);
  });

  it('carry any filter value back exactly as sent', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.integer({ min: 1 }),
        fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
        (value, page, cursor) => {
          const url = new URL(
            pageUrl(listUrl, { 'openedBy._id': value }, { page, ...(cursor ? { cursor } : {}) }),
          );
          expect(`${url.origin}${url.pathname}`).toBe(listUrl);
          expect([...url.searchParams]).toEqual([
            ['openedBy._id', value],
            ['page', String(page)],
            ...(cursor ? [['cursor', cursor]] : []),
          ]);
        },
      ),
    );
  });

  it('make the seed list wrapper, with null links where there is no neighbour', () => {
    const records = [{ id: 'a' }];
    expect(pageView({ totalRecords: 1, previous: null, next: null }, records, listUrl, {})).toEqual({
      totalRecords: 1,
      recordsPerPage: 25,
      previousQuery: null,
      nextQuery: null,
      records,
    });
    expect(
      pageView(
        { totalRecords: 80, previous: { page: 1 }, next: { page: 3, cursor: 'c' } },
        records,
        listUrl,
        { status: 'opened' },
      ),
    ).toMatchObject({
      previousQuery: `${listUrl}?status=opened&page=1`,
      nextQuery: `${listUrl}?status=opened&page=3&cursor=c`,
    });
  });
});
