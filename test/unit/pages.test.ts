import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitCount, payloadBytes } from '../../shared/http/byte-budget';
import { pageResponse, pageUrl, pageView } from '../../shared/http/views/page';
import { customerEntity } from '../../shared/store/entities/records';
import { ticketEntity } from '../../shared/store/entities/ticket';
import { InvalidCursor } from '../../shared/store/errors';
import { LEGACY_SEARCH_INDEXES } from '../../shared/store/migrations/legacy';
import { keptLinks, pageLinks, pageStartsWithin } from '../../shared/store/page-links';
import { resumeKey } from '../../shared/store/page-read';
import { filterDigest } from '../../shared/store/page-source';
import { PAGE_BYTES, type Page, RECORDS_PER_PAGE } from '../../shared/store/pages';
import { searchTarget } from '../../shared/store/search-targets';
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

describe('keptLinks', () => {
  const position = (n: number) => [`sort-${n}`, entry(n).pk, '#'];

  it('reading on, continues right after the last entry returned, even when more were read', () => {
    const read = { items: entries(25), hasMore: false };
    expect(keptLinks(SORT, 3, read, 'n', 25).next).toBeNull();
    expect(keptLinks(SORT, 3, read, 'n', 10)).toEqual({
      previous: { page: 2, k: position(0) },
      next: { page: 4, k: position(9) },
    });
  });

  it('walking back, returns the entries next to the page it came from: previous starts before the first returned', () => {
    const read = { items: entries(25), hasMore: true };
    expect(keptLinks(SORT, 3, read, 'p', 10)).toEqual({
      previous: { page: 2, k: position(15) },
      next: { page: 4, k: position(24) },
    });
  });

  it('returns at least one entry of a non-empty page, and never more than were read', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.nat({ max: RECORDS_PER_PAGE }),
        fc.boolean(),
        fc.constantFrom('n' as const, 'p' as const),
        fc.integer({ min: -2, max: 30 }),
        (page, size, hasMore, direction, count) => {
          const { previous, next } = keptLinks(
            SORT,
            page,
            { items: entries(size), hasMore },
            direction,
            count,
          );
          const kept = size === 0 ? 0 : Math.min(size, Math.max(1, count));
          const first = direction === 'n' ? 0 : size - kept;
          const last = direction === 'n' ? kept - 1 : size - 1;
          if (kept === 0) expect(next).toBeNull();
          else if (direction === 'p' || hasMore || kept < size)
            expect(next).toEqual({ page: page + 1, k: position(last) });
          else expect(next).toBeNull();
          if (page > 2 && kept > 0) expect(previous).toEqual({ page: page - 1, k: position(first) });
        },
      ),
    );
  });
});

describe('pageResponse', () => {
  const listUrl = 'https://api.example.com/ticket/list';
  /** A page of records of the given sizes in bytes of payload; remembers what `links` was told. */
  const fakePage = (sizes: (number | undefined)[], keep: 'first' | 'last') => {
    const told: number[] = [];
    const page: Page<{ id: number; pad: string } | undefined> = {
      totalRecords: 99,
      fetched: new Map(),
      keep,
      items: sizes.map((size, i) => (size === undefined ? undefined : { id: i, pad: 'x'.repeat(size) })),
      links: async (kept) => {
        told.push(kept);
        return { previous: null, next: { page: 2, cursor: 'c' } };
      },
    };
    return { page, told };
  };
  const view = (r: { id: number; pad: string }) => ({ id: r.id, pad: r.pad });

  it('returns every record that fits, and tells the store how many entries it kept', async () => {
    const { page, told } = fakePage([10, 20, 30], 'first');
    const body = await pageResponse(page, view, listUrl, {});
    expect(body.records.map((r) => r.id)).toEqual([0, 1, 2]);
    expect(told).toEqual([3]);
    expect(body.nextQuery).toBe(`${listUrl}?page=2&cursor=c`);
  });

  it('cuts a page at PAGE_BYTES of payload: the first records reading on, the last walking back', async () => {
    const big = 1_900_000; // 3 fit, not 4
    const first = fakePage([big, big, big, big, big], 'first');
    const body = await pageResponse(first.page, view, listUrl, {});
    expect(body.records.map((r) => r.id)).toEqual([0, 1, 2]);
    expect(first.told).toEqual([3]);
    expect(payloadBytes(body.records)).toBeLessThanOrEqual(PAGE_BYTES);
    const last = fakePage([big, big, big, big, big], 'last');
    expect((await pageResponse(last.page, view, listUrl, {})).records.map((r) => r.id)).toEqual([2, 3, 4]);
    expect(last.told).toEqual([3]);
  });

  it('always returns one record, and skips entries whose record vanished', async () => {
    const huge = fakePage([PAGE_BYTES + 1, 1], 'first');
    expect((await pageResponse(huge.page, view, listUrl, {})).records.map((r) => r.id)).toEqual([0]);
    const gone = fakePage([1, undefined, 1], 'first');
    expect((await pageResponse(gone.page, view, listUrl, {})).records.map((r) => r.id)).toEqual([0, 2]);
    expect(gone.told).toEqual([3]);
  });

  it('builds records in the order it keeps them, on demand, and none past the first that does not fit', async () => {
    const big = 1_900_000; // 3 fit, not 4
    for (const keep of ['first', 'last'] as const) {
      const { page } = fakePage([big, big, big, big, big, 1], keep);
      const built: number[] = [];
      const lazily = async (r: { id: number; pad: string }) => {
        built.push(r.id);
        return view(r);
      };
      const body = await pageResponse(page, lazily, listUrl, {});
      // Reading on, records 0-2 fit and 3 does not; walking back, 5 to 2 fit and 1 does not.
      expect(built, keep).toEqual(keep === 'first' ? [0, 1, 2, 3] : [5, 4, 3, 2, 1]);
      expect(
        body.records.map((r) => r.id),
        keep,
      ).toEqual(keep === 'first' ? [0, 1, 2] : [2, 3, 4, 5]);
    }
  });

  it('keeps what fitCount keeps of the sizes its records turn out to have, for any sizes and either order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.option(fc.integer({ min: 0, max: 3_000_000 }), { nil: undefined }), { maxLength: 26 }),
        fc.constantFrom('first' as const, 'last' as const),
        async (sizes, keep) => {
          const { page, told } = fakePage(sizes, keep);
          const body = await pageResponse(page, view, listUrl, {});
          const views = page.items.map((item) => (item === undefined ? 0 : payloadBytes(view(item))));
          const kept = fitCount(keep === 'first' ? views : [...views].reverse(), PAGE_BYTES, 1);
          expect(told).toEqual([kept]);
          const ids = page.items.flatMap((item) => (item === undefined ? [] : [item.id]));
          const shownIds = (
            keep === 'first' ? page.items.slice(0, kept) : page.items.slice(page.items.length - kept)
          ).flatMap((item) => (item === undefined ? [] : [item.id]));
          expect(body.records.map((r) => r.id)).toEqual(shownIds);
          expect(ids).toEqual(expect.arrayContaining(shownIds));
        },
      ),
      { numRuns: 50 },
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

  it('names the index a search index succeeds, so a cursor outlives the migration step that swaps them', () => {
    const v2 = searchTarget(ticketEntity, TENANT, { param: 'status', value: 'opened' });
    expect(filterDigest({ ...v2, index: LEGACY_SEARCH_INDEXES.s1 })).toBe(filterDigest(v2));
    expect(filterDigest({ ...v2, index: LEGACY_SEARCH_INDEXES.s2 })).not.toBe(filterDigest(v2));
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

  it('resumes inside the searched partition from the cursor position, on the list order the v2 index sorts by', () => {
    expect(resumeKey({ tenantId: TENANT, target }, cursor(`T#${TENANT}#TICKET#abc`))).toEqual({
      s1pk: `T#${TENANT}#TICKET#status=opened`,
      listsk: 's',
      pk: `T#${TENANT}#TICKET#abc`,
      sk: '#',
    });
  });

  it('resumes the list on its own keys, and a range on the sort attribute of its slot', () => {
    const list = searchTarget(ticketEntity, TENANT);
    expect(resumeKey({ tenantId: TENANT, target: list }, cursor(`T#${TENANT}#TICKET#abc`))).toEqual({
      listpk: `T#${TENANT}#TICKET`,
      listsk: 's',
      pk: `T#${TENANT}#TICKET#abc`,
      sk: '#',
    });
    const range = searchTarget(ticketEntity, TENANT, { param: 'managedDate', value: '1' });
    expect(resumeKey({ tenantId: TENANT, target: range }, cursor(`T#${TENANT}#TICKET#abc`))).toEqual({
      s8pk: `T#${TENANT}#TICKET#managedDate`,
      s8sk: 's',
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
