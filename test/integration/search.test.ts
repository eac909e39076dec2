import { describe, expect, it } from 'vitest';
import { createHelpdeskClient } from '../../client/src';
import { startServer } from '../../local/server';
import { resetConfig } from '../../shared/config';
import { createClient } from '../../shared/domain/new-client';
import { eventually } from '../helpers/eventually';
import { newSearcher, useSearchPipeline } from '../helpers/search-pipeline';

/**
 * Text search end to end (docs/search.md): writes through the API, the table's stream read by
 * local/event-pipeline.ts into the search indexer (functions/search-indexer.ts) and PGlite, and
 * `GET /ticket/search` / `GET /customer/search` reading it back, each search sent with the
 * `Helpdesk-Min-Position` of the write before it (read your writes: no sleeping in these tests).
 */
useSearchPipeline('helpdesk-test-search');

const idsOf = (res: {
  body: { ticket?: { records: { id: string }[] }; customer?: { records: { id: string }[] } };
}) => (res.body.ticket ?? res.body.customer)?.records.map((r) => r.id) ?? [];

describe('ticket search', () => {
  it('finds tickets by their words, phrases, prefixes, exclusions, OR and fields, with highlights', async () => {
    const s = await newSearcher();
    const jane = (
      await s.write('POST', '/customer/insert', {
        name: 'Jane Roe',
        email: 'jane.roe@example.com',
        language: 'en',
      })
    ).id;
    const max = (await s.write('POST', '/customer/insert', { name: 'Max Muster', email: 'max@example.org' }))
      .id;
    const refund = (
      await s.write('POST', '/ticket/insert', {
        subject: 'Refunds for broken shoes',
        description: 'The <b>left</b> shoe arrived broken',
        openedBy: { id: jane },
        tags: ['vip'],
      })
    ).id;
    const invoice = (
      await s.write('POST', '/ticket/insert', {
        subject: 'Invoice question',
        description: 'Where is my invoice for March?',
        openedBy: { id: max },
        priority: 1,
      })
    ).id;
    const both = (
      await s.write('POST', '/ticket/insert', {
        subject: 'Shipping delay',
        description: 'The parcel is late',
        openedBy: { id: max },
      })
    ).id;
    await s.write('PUT', `/ticket/reply/${both}`, { text: 'We refunded the shipping costs.' });
    await s.write('PUT', `/ticket/addNote/${invoice}`, { note: 'Customer called twice about the invoice' });

    const find = async (query: string) => {
      const res = await s.searchAfterWrites('/ticket/search', query);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res;
    };
    // Stemming (english for Jane's ticket), replies included.
    expect(new Set(idsOf(await find('refund')))).toEqual(new Set([refund, both]));
    expect(idsOf(await find('"broken shoes"'))).toEqual([refund]);
    expect(idsOf(await find('"shoes broken"'))).toEqual([]);
    expect(idsOf(await find('refund -shipping'))).toEqual([refund]);
    expect(new Set(idsOf(await find('invoice OR parcel')))).toEqual(new Set([invoice, both]));
    expect(idsOf(await find('invo*'))).toEqual([invoice]);
    expect(idsOf(await find('tag:vip'))).toEqual([refund]);
    expect(idsOf(await find('priority:1'))).toEqual([invoice]);
    expect(new Set(idsOf(await find(`openedBy:${max}`)))).toEqual(new Set([invoice, both]));
    expect(idsOf(await find(`openedBy:${max} -priority:1`))).toEqual([both]);
    expect(idsOf(await find('twice'))).toEqual([invoice]);
    // The customer's name and address find their tickets.
    expect(idsOf(await find('jane'))).toEqual([refund]);
    expect(new Set(idsOf(await find('example.org')))).toEqual(new Set([invoice, both]));

    const res = await find('broken');
    const [record] = res.body.ticket.records;
    expect(record.subject).toBe('Refunds for broken shoes');
    expect(record.highlights.subject).toEqual(['Refunds for <em>broken</em> shoes']);
    expect(record.highlights.description[0]).toContain('<em>broken</em>');
    expect(res.body.ticket.totalRecords).toBe(1);
  });

  it('follows every change: updates, replies, deletion, trash and restore', async () => {
    const s = await newSearcher();
    const customer = (await s.write('POST', '/customer/insert', { name: 'Ana', email: 'ana@example.com' }))
      .id;
    const id = (
      await s.write('POST', '/ticket/insert', {
        subject: 'Printer jam',
        description: 'd',
        openedBy: { id: customer },
      })
    ).id;
    const ids = async (query: string) => idsOf(await s.searchAfterWrites('/ticket/search', query));
    expect(await ids('printer')).toEqual([id]);
    await s.write('PUT', `/ticket/update/${id}`, { subject: 'Scanner jam' });
    expect(await ids('printer')).toEqual([]);
    expect(await ids('scanner')).toEqual([id]);
    await s.write('PUT', `/ticket/reply/${id}`, { text: 'Try the toner' });
    expect(await ids('toner')).toEqual([id]);
    await s.write('DELETE', `/ticket/delete/${id}`);
    expect(await ids('scanner')).toEqual([]);
    await s.write('PUT', `/ticket/restore/${id}`);
    expect(await ids('toner')).toEqual([id]);
    // A customer's new name reaches their tickets.
    await s.write('PUT', `/customer/update/${customer}`, { name: 'Anastasia' });
    expect(await ids('anastasia')).toEqual([id]);
  });

  it("reads each ticket in its customer's language, one the tenant began to use after its last search too", async () => {
    const s = await newSearcher();
    const jane = (
      await s.write('POST', '/customer/insert', { name: 'Jane', email: 'jane@example.com', language: 'en' })
    ).id;
    const english = (
      await s.write('POST', '/ticket/insert', {
        subject: 'Runs late',
        description: 'pagamenti',
        openedBy: { id: jane },
      })
    ).id;
    const ids = async (query: string) => idsOf(await s.searchAfterWrites('/ticket/search', query));
    // Searched while every row is in English: this process now knows the tenant's one configuration.
    expect(await ids('running')).toEqual([english]);
    expect(await ids('pagamento')).toEqual([]);
    const lucia = (
      await s.write('POST', '/customer/insert', { name: 'Lucia', email: 'lucia@example.it', language: 'it' })
    ).id;
    const italian = (
      await s.write('POST', '/ticket/insert', {
        subject: 'Pagamenti doppi',
        description: 'd',
        openedBy: { id: lucia },
      })
    ).id;
    // Italian stems "pagamento" as "pagamenti": the new ticket is found in its language, and the
    // English one, whose "pagamenti" English does not stem, is not.
    expect(await ids('pagamento')).toEqual([italian]);
    expect(await ids('running')).toEqual([english]);
  });

  it('pages through every match with an exact total, and stays within its tenant', async () => {
    const s = await newSearcher();
    const other = await newSearcher();
    const customer = (await s.write('POST', '/customer/insert', { name: 'Bo', email: 'bo@example.com' })).id;
    const otherCustomer = (
      await other.write('POST', '/customer/insert', { name: 'Cy', email: 'cy@example.com' })
    ).id;
    await other.write('POST', '/ticket/insert', {
      subject: 'Router down',
      description: 'd',
      openedBy: { id: otherCustomer },
    });
    const made: string[] = [];
    for (let i = 0; i < 30; i++)
      made.push(
        (
          await s.write('POST', '/ticket/insert', {
            subject: `Router down ${i}`,
            description: 'd',
            openedBy: { id: customer },
          })
        ).id,
      );
    const first = await s.searchAfterWrites('/ticket/search', 'router', '&sort=created&order=asc');
    expect(first.status).toBe(200);
    expect(first.body.ticket.totalRecords).toBe(30);
    expect(first.body.ticket.records).toHaveLength(25);
    expect(first.body.ticket.previousQuery).toBeNull();
    const second = await s.api.get(first.body.ticket.nextQuery);
    expect(second.status).toBe(200);
    expect(second.body.ticket.nextQuery).toBeNull();
    expect([...idsOf(first), ...idsOf(second)]).toEqual(made);
    const back = await s.api.get(second.body.ticket.previousQuery);
    expect(idsOf(back)).toEqual(made.slice(0, 25));
    // The other tenant finds its own ticket alone; a cursor of one tenant is refused to the other.
    expect((await other.searchAfterWrites('/ticket/search', 'router')).body.ticket.totalRecords).toBe(1);
    const stolen = await other.api.get(first.body.ticket.nextQuery);
    expect(stolen.status).toBe(400);
  });

  it('refuses malformed queries with the position of the fault, and unknown positions', async () => {
    const s = await newSearcher();
    const unclosed = await s.search('/ticket/search', 'refund "broken');
    expect(unclosed.status).toBe(400);
    expect(unclosed.body.errors[0]).toMatchObject({ path: 'query' });
    expect(unclosed.body.errors[0].message).toMatch(/position 8/);
    expect((await s.search('/ticket/search', 'colour:red')).status).toBe(400);
    expect((await s.search('/customer/search', 'status:opened')).body.errors[0].message).toMatch(
      /status: is not a filter of this search \(at position 1\)/,
    );
    const bad = await s.get('/ticket/search?query=x', { 'helpdesk-min-position': 'yesterday' });
    expect(bad.status).toBe(400);
  });

  it('answers 503 index-behind when the index has not applied the position in time', async () => {
    const s = await newSearcher();
    const future = `${'9'.repeat(17)}#zzzz`;
    process.env.SEARCH_WAIT_MS = '300';
    resetConfig();
    try {
      const res = await s.get('/ticket/search?query=x', { 'helpdesk-min-position': future });
      expect(res.status).toBe(503);
      expect(res.body.type).toMatch(/index-behind/);
      expect(res.headers['retry-after']).toBe('1');
    } finally {
      delete process.env.SEARCH_WAIT_MS;
      resetConfig();
    }
  });
});

describe('erasure and hostile text', () => {
  it('forgets an erased customer at once, and indexes their anonymised tickets again once the erasure ran', async () => {
    const s = await newSearcher();
    const greta = (await s.write('POST', '/customer/insert', { name: 'Greta Kalm', email: 'greta@kalm.io' }))
      .id;
    const id = (
      await s.write('POST', '/ticket/insert', {
        subject: 'Greta Kalm wants a refund',
        description: 'my flat in Lund',
        openedBy: { id: greta },
      })
    ).id;
    const ids = async (query: string) => idsOf(await s.searchAfterWrites('/ticket/search', query));
    expect(await ids('greta')).toEqual([id]);
    const job = await s.write('POST', `/customer/erase/${greta}`, { mode: 'anonymise' });
    // Applied with the erasure's own change: nothing of hers is found any more. (Her ticket's other
    // words, `refund`, may be found again at any moment: the erasure job re-indexes the anonymised
    // ticket as it ends, which on a fast machine comes before this line.)
    for (const word of ['greta', 'kalm.io', 'lund']) expect(await ids(word), word).toEqual([]);
    expect(idsOf(await s.searchAfterWrites('/customer/search', 'greta'))).toEqual([]);
    await eventually(
      'the erasure ran',
      async () => (await s.api.get(job.statusUrl)).body.status === 'done',
      20_000,
    );
    // Its end has the anonymised ticket indexed again, as the table holds it now.
    await eventually(
      'the anonymised ticket is found again',
      async () => (await ids('refund')).includes(id),
      10_000,
    );
    // Her name and address as the erasure took them out of the ticket, and its description, are gone.
    expect((await s.api.get(`/ticket/${id}`)).body.subject).not.toContain('Greta');
    for (const word of ['greta', 'kalm', 'kalm.io', 'lund']) expect(await ids(word), word).toEqual([]);
  });

  it('escapes the text around the highlights: only the marks are markup', async () => {
    const s = await newSearcher();
    const customer = (await s.write('POST', '/customer/insert', { name: 'Eve', email: 'eve@example.com' }))
      .id;
    await s.write('POST', '/ticket/insert', {
      subject: '<img src=x onerror=alert(1)> invoice & "quotes"',
      description: '</em><script>alert(2)</script> invoice',
      openedBy: { id: customer },
    });
    const res = await s.searchAfterWrites('/ticket/search', 'invoice');
    const { highlights } = res.body.ticket.records[0];
    const all = [...highlights.subject, ...highlights.description].join(' ');
    expect(all).toContain('<em>invoice</em>');
    expect(all.replaceAll('<em>', '').replaceAll('</em>', '')).not.toMatch(/[<>"]/);
  });
});

describe('customer search', () => {
  it('finds customers by name, address and details, with highlights', async () => {
    const s = await newSearcher();
    const a = (
      await s.write('POST', '/customer/insert', {
        name: 'Lena Fischer',
        email: 'lena@fischer.de',
        company: 'Fischer GmbH',
      })
    ).id;
    await s.write('POST', '/customer/insert', { name: 'Tom Baker', email: 'tom@bakery.com' });
    const res = await s.searchAfterWrites('/customer/search', 'fischer');
    expect(res.status).toBe(200);
    expect(idsOf(res)).toEqual([a]);
    expect(res.body.customer.records[0].highlights.name).toEqual(['Lena <em>Fischer</em>']);
    expect(idsOf(await s.searchAfterWrites('/customer/search', 'gmbh'))).toEqual([a]);
  });
});

describe('the TypeScript client', () => {
  it('writes, then searches with the write position: every match, across pages, with highlights', async () => {
    const server = await startServer({ port: 0 });
    try {
      const { apiToken } = await createClient(
        `search-client-${Math.random().toString(36).slice(2, 8)}`,
        'standard',
      );
      const client = createHelpdeskClient({ baseUrl: server.url, apiToken });
      const customer = await client.customers.insert({ name: 'Olga Lind', email: 'olga@lind.se' });
      expect(customer.position).toMatch(/^\d{17}#/);
      let last = customer.position;
      for (let i = 0; i < 27; i++)
        last = (
          await client.tickets.insert({
            subject: `Heater broken ${i}`,
            description: 'cold',
            openedBy: { id: customer.data.id },
          })
        ).position;
      const found: string[] = [];
      const pages = client.tickets
        .search('heater', { minPosition: last, sort: 'created', order: 'asc' })
        .pages();
      for await (const page of pages) {
        expect(page.totalRecords).toBe(27);
        for (const t of page.records) {
          found.push(t.subject);
          expect(t.highlights.subject?.[0]).toMatch(/<em>Heater<\/em>/);
        }
      }
      expect(found).toEqual(Array.from({ length: 27 }, (_, i) => `Heater broken ${i}`));
      const people = [];
      for await (const c of client.customers.search('lind', { minPosition: last })) people.push(c.name);
      expect(people).toEqual(['Olga Lind']);
    } finally {
      await server.close();
    }
  });
});
