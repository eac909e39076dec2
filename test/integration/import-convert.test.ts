import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertDeskero } from '../../local/import/deskero';
import { type ImportLine, importLine } from '../../shared/schemas/import';
import { invoke } from '../helpers/api';
import { tenantWithCustomer } from '../helpers/tenant-client';

/**
 * `helpdesk import convert deskero`: what the list and detail routes answer (ours are Deskero's
 * shapes, under the `deskero` profile its very answers: `onhold`), saved as files, becomes import
 * lines that carry every record with its history.
 */
describe('the Deskero converter, on answers of the list and detail routes', () => {
  it('turns saved list pages and details into lines the format accepts, history kept', async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const agent = await api.create('/agent/insert', { name: 'Grace', email: 'grace@example.com' });
    const area = await api.create('/ticketArea/insert', { area: 'printers' });
    const open = await api.create('/ticket/insert', {
      subject: 'Printer on fire',
      description: 'It is on fire.',
      openedBy: { id: customer },
      assignedTo: { id: agent },
      area: { id: area },
      tags: ['fire', 'urgent'],
      priority: 1,
      status: 'on hold',
      customFields: [{ name: 'floor', value: 3 }],
      attachedDocuments: [
        {
          documentName: 'a.txt',
          documentType: 'text/plain',
          documentBase64: Buffer.from('x').toString('base64'),
        },
      ],
    });
    await api.put(`/ticket/reply/${open}`, {
      text: 'Have you tried water?',
      replyFromOperator: { id: agent },
    });
    await api.put(`/ticket/reply/${open}`, { text: 'It worked.' });
    await api.put(`/ticket/addNote/${open}`, { note: 'calm customer', insertBy: agent });
    const closed = await api.create('/ticket/insert', {
      subject: 'Old',
      description: 'd',
      openedBy: { id: customer },
    });
    await api.put(`/ticket/update/${closed}`, { status: 'closed' });

    const deskero = { ...tenant.headers, 'helpdesk-compat': 'deskero' };
    const get = async (path: string) => {
      const res = await invoke('GET', path, { headers: deskero });
      expect(res.status, path).toBe(200);
      return res.body;
    };
    const dir = mkdtempSync(join(tmpdir(), 'deskero-export-'));
    writeFileSync(join(dir, 'page-tickets.json'), JSON.stringify(await get('/ticket/list')));
    writeFileSync(join(dir, 'page-customers.json'), JSON.stringify(await get('/customer/list')));
    // A detail saved one per line, named after its kind; the same ticket as in the page (once).
    writeFileSync(join(dir, 'tickets-details.ndjson'), `${JSON.stringify(await get(`/ticket/${closed}`))}\n`);

    const { lines, warnings } = convertDeskero(dir);
    const parsed = lines.map((l) => importLine.parse(l));
    // The agent and the area come from what the tickets embed; the seeded ticket types are not named.
    expect(parsed.map((l) => `${l.kind} ${l.externalId}`).sort()).toEqual(
      [
        `agent ${agent}`,
        `customer ${customer}`,
        `ticketArea ${area}`,
        `ticket ${open}`,
        `ticket ${closed}`,
      ].sort(),
    );
    const ticket = (id: string) =>
      parsed.find((l) => l.externalId === id) as Extract<ImportLine, { kind: 'ticket' }>;
    const detail = (await api.get(`/ticket/${open}`)).body;
    expect(ticket(open)).toMatchObject({
      number: detail.number,
      insertDate: detail.insertDate,
      managedDate: detail.managedDate,
      closedDate: null,
      subject: 'Printer on fire',
      status: 'on hold',
      priority: 1,
      tags: ['fire', 'urgent'],
      customFields: [{ name: 'floor', value: 3 }],
      openedBy: { externalId: customer },
      assignedTo: { externalId: agent },
      area: { externalId: area },
      replies: [
        {
          text: 'Have you tried water?',
          replyDate: detail.replies[0].replyDate,
          replyFromOperator: { externalId: agent },
        },
        { text: 'It worked.', replyDate: detail.replies[1].replyDate, replyFromOperator: null },
      ],
      notes: [{ note: 'calm customer', date: detail.ticketNotes[0].date, insertBy: { externalId: agent } }],
    });
    expect(ticket(closed)).toMatchObject({ status: 'closed', closedDate: expect.any(Number) });
    const customerLine = parsed.find((l) => l.kind === 'customer');
    expect(customerLine).toMatchObject({ name: 'Ada', email: 'ada@example.com' });
    // An agent id of the old account and its portal account mean nothing in the new one.
    expect(customerLine).not.toHaveProperty('insertByAgentId');
    expect(customerLine).not.toHaveProperty('account');
    expect(parsed.find((l) => l.kind === 'ticketArea')).toMatchObject({ area: 'printers' });
    expect(warnings).toEqual([`ticket ${open} (${detail.number}): 1 documents not carried over`]);
  });
});
